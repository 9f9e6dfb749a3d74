/**
 * LLM user responder (docs/architecture.md "Step 9: response"): the user's reply from the updated state, the
 * turn's plan and its public events, through src/llm/prompts/responder.ts. The reply must state the amount of
 * this turn's user offer, acceptance or commitment (else it is retried); a speaker prefix the model adds is
 * removed.
 */
import { askRole, type RoleCallOptions } from '../../llm/call';
import { RESPOND_DEFAULTS, replyAnswerSchema, replyMessages } from './prompts/responder';
import { cleanUtterance } from '../../llm/utterance';
import type { ResponseInput, Responder } from '../roles';

/** The user responder on a language backend (see the module comment). */
export class LlmResponder implements Responder {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * The reply text (non-empty). Draws the sampling seed from `input.rng` (one draw per turn).
   * @throws RoleOutputError (role `responder`); backend errors propagate.
   */
  async respond(input: ResponseInput): Promise<string> {
    const answer = await askRole(this.options, {
      role: 'responder',
      answerName: 'reply',
      messages: replyMessages(input),
      schema: replyAnswerSchema(input),
      defaults: RESPOND_DEFAULTS,
      seed: input.rng.deriveSeed(),
    });
    return cleanUtterance(answer.reply, input.view.task.id, 'user');
  }
}
