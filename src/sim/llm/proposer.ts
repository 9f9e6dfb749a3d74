/**
 * LLM cognitive change proposer (paper §A.3): an assessment of the Influence message, then a sparse proposal,
 * through the prompt templates of src/llm/prompts/change-proposer.ts. The proposal is returned as the model
 * wrote it (validated against `ProposalSchema` only): the simulator's deterministic updater clips it to the
 * limits of the (route, judgment), or rejects it as a whole and leaves the state unchanged.
 */
import {
  ASSESS_DEFAULTS,
  AssessAnswerSchema,
  PROPOSE_DEFAULTS,
  ProposeAnswerSchema,
  assessMessages,
  proposeMessages,
} from './prompts/change-proposer';
import { askRole, type RoleCallOptions } from '../../llm/call';
import type { ChangeProposer, MessageAssessment, SimView } from '../roles';
import type { Judgment, Proposal, Route } from '../types';
import { peekSeed } from './seed';

/** The change proposer on a language backend: assess, then propose (see the module comment). */
export class LlmChangeProposer implements ChangeProposer {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * Relevance, argument quality, cue strength (each in [0, 1]), discrepancy and pressure levels.
   * @throws RoleOutputError (role `proposer`, answer `assessment`); backend errors propagate.
   */
  async assess(utterance: string, view: SimView): Promise<MessageAssessment> {
    return askRole(this.options, {
      role: 'proposer',
      answerName: 'assessment',
      messages: assessMessages(utterance, view),
      schema: AssessAnswerSchema,
      defaults: ASSESS_DEFAULTS,
      seed: peekSeed(view.state),
    });
  }

  /**
   * The proposed change for the given route and judgment (not yet limited: see the module comment).
   * @throws RoleOutputError (role `proposer`, answer `proposal`); backend errors propagate.
   */
  async propose(
    utterance: string,
    view: SimView,
    route: Route,
    judgment: Judgment,
    assessment: MessageAssessment,
  ): Promise<Proposal> {
    return askRole(this.options, {
      role: 'proposer',
      answerName: 'proposal',
      messages: proposeMessages(utterance, view, route, judgment, assessment),
      schema: ProposeAnswerSchema,
      defaults: PROPOSE_DEFAULTS,
      seed: peekSeed(view.state),
    });
  }
}
