/**
 * Prompt-only simulators as comparators for simulator validation (CSTPO paper §4.2: "Persona" and
 * "Persona-Resist"): SimRoles whose reply is the language model's, from a persona prompt, and whose cognitive
 * state never changes — the change proposer proposes nothing, so Cog-Sim's constrained updates do no work and
 * its task events (which follow the unchanged state) stay where the seed put them. Only the reply text carries
 * the response; dose–response scoring reads text and public events alike for every simulator.
 */
import { TemplateModeClassifier } from '../sim/template';
import type {
  ChangeProposer,
  MessageAssessment,
  ResponseInput,
  Responder,
  SimRoles,
  SimView,
} from '../sim/roles';
import type { Proposal } from '../sim/types';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { PersonaReply, personaMessages, type PersonaVariant } from './prompts/persona-simulator';

/** A change proposer that proposes no change (neutral assessment, empty proposal). */
export class NoChangeProposer implements ChangeProposer {
  async assess(_utterance: string, _view: SimView): Promise<MessageAssessment> {
    return { relevance: 0, argumentQuality: 0, cueStrength: 0, discrepancy: 'medium', pressure: 'low' };
  }
  async propose(_u: string, view: SimView): Promise<Proposal> {
    const { CP, FE } = view.state.cognitive.appraisal;
    return { changes: [], newRecords: [], claimTopics: [], appraisal: { CP, FE }, plan: { stance: 'open' } };
  }
}

/** The persona's reply from the language model (the simulator's random stream seeds the request). */
export class PersonaResponder implements Responder {
  constructor(
    private readonly options: LlmBaselineOptions,
    private readonly variant: PersonaVariant,
  ) {}
  async respond(input: ResponseInput): Promise<string> {
    const messages = personaMessages(input.view.state, input.view.history, input.utterance, this.variant);
    return (await askBaseline(this.options, messages, PersonaReply, input.rng, this.variant)).reply;
  }
}

/** SimRoles of a prompt-only simulator (see the module comment). */
export function personaSimRoles(options: LlmBaselineOptions, variant: PersonaVariant = 'persona'): SimRoles {
  return {
    modeClassifier: new TemplateModeClassifier(),
    changeProposer: new NoChangeProposer(),
    responder: new PersonaResponder(options, variant),
  };
}
