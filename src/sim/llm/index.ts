/** LLM implementations of the simulator's language roles (same inputs and outputs as `../template`). */
import type { RoleCallOptions } from '../../llm/call';
import type { SimRoles } from '../roles';
import { LlmModeClassifier } from './mode';
import { LlmChangeProposer } from './proposer';
import { LlmResponder } from './responder';

export { LlmModeClassifier } from './mode';
export { LlmChangeProposer } from './proposer';
export { LlmResponder } from './responder';
export { peekSeed } from './seed';

/** The three simulator roles on one LLM backend with the same call settings. */
export function llmSimRoles(options: RoleCallOptions): SimRoles {
  return {
    modeClassifier: new LlmModeClassifier(options),
    changeProposer: new LlmChangeProposer(options),
    responder: new LlmResponder(options),
  };
}
export * from './prompts';
