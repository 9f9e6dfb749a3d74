/**
 * Baseline policies of the papers' tables (Principles paper §4.1 and appendix F.2; CSTPO paper §4.2):
 * Standard, Proactive, ProCoT, Ask-an-Expert, ICL-AIF, MI-Prompt and PPDPP, each in template and/or LLM form.
 */
export * from './common';
export * from './llm';
export * from './standard';
export { roleBrief, transcript, labelMenu, chatRequest, type LlmCallOptions } from './prompts/common';
export { responseMessages, ResponseAnswer } from './prompts/response';
