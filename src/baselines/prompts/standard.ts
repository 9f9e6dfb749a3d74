/**
 * Standard (Principles paper, appendix F.2): the model converses with no explicit strategy — only the role,
 * the goal and the dialogue. The prompt is the shared response prompt without guidance.
 */
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { responseMessages } from './response';

export { ResponseAnswer as StandardAnswer } from './response';

/** Messages of the Standard baseline's single call. */
export function standardMessages(obs: Observation): ChatMessage[] {
  return responseMessages(obs);
}
