/**
 * LLM action-type classifier (paper §A.2): the mode of the actor's utterance from its text and the dialogue,
 * through the prompt template of src/llm/prompts/mode.ts.
 */
import { askRole, type RoleCallOptions } from '../../llm/call';
import { MODE_DEFAULTS, ModeAnswerSchema, modeMessages } from './prompts/mode';
import type { ModeClassifier, SimView } from '../roles';
import type { Mode } from '../types';
import { peekSeed } from './seed';

/** The mode classifier on a language backend (see the module comment). */
export class LlmModeClassifier implements ModeClassifier {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * Influence, Elicit or Social.
   * @throws RoleOutputError (role `mode`) after the allowed invalid answers; backend errors propagate.
   */
  async classify(utterance: string, view: SimView): Promise<Mode> {
    const answer = await askRole(this.options, {
      role: 'mode',
      answerName: 'mode',
      messages: modeMessages(utterance, view),
      schema: ModeAnswerSchema,
      defaults: MODE_DEFAULTS,
      seed: peekSeed(view.state),
    });
    return answer.mode;
  }
}
