/**
 * Baseline policies of the papers' tables (Principles paper §4.1 and appendix F.2; CSTPO paper §4.2):
 * Standard, Proactive, ProCoT, Ask-an-Expert, ICL-AIF, MI-Prompt and PPDPP, each in template and/or LLM form.
 */

export * from './common';
export * from './llm';
export * from './standard';
export { roleBrief, transcript, labelMenu, chatRequest, type LlmCallOptions } from './prompts/common';
export { responseMessages, ResponseAnswer } from './prompts/response';
export * from './cues';
export * from './proactive';
export * from './procot';
export * from './ask-an-expert';
export * from './icl-aif';
export * from './mi-prompt';
export * from './label-mapper';
export { proactiveMessages, proactiveAnswer } from './prompts/proactive';
export { procotMessages, procotAnswer } from './prompts/procot';
export { expertMessages, ExpertAnswer, expertGuidance } from './prompts/ask-an-expert';
export { feedbackMessages, FeedbackAnswer, feedbackGuidance } from './prompts/icl-aif';
export { miInstruction, miStrategyMessages, miStrategyAnswer } from './prompts/mi-prompt';
export { labelMapMessages, labelMapAnswer } from './prompts/label-mapper';
export * from './persona-simulator';
export { personaMessages, PersonaReply, type PersonaVariant } from './prompts/persona-simulator';
export * from './ppdpp';
