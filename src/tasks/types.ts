/** The shape of a task definition (label sets, role names, topic lexicons, horizon). */
import type { Seed, TaskId } from './seed';

/**
 * A topic lexicon: for each topic tag of the task's BDI records, the lower-case phrases whose presence in an
 * utterance means the utterance addresses that topic. Text rules (template roles) read utterances through it.
 */
export type TopicLexicon = Readonly<Record<string, readonly string[]>>;

export interface TaskSpec {
  readonly id: TaskId;
  /** Human-readable name, e.g. "ESConv emotional support". */
  readonly title: string;
  readonly actorRole: string;
  readonly userRole: string;
  /** The actor's strategy labels (merged label set), in a fixed order: index = action id for learned policies. */
  readonly strategies: readonly string[];
  /** Normalised raw dataset label → merged label in `strategies`. */
  readonly rawLabelMap: ReadonlyMap<string, string>;
  /** Topic lexicon for the simulator's and judge's text rules. */
  readonly topics: TopicLexicon;
  /** Turn horizon under the CSTPO protocol (actor turns). */
  readonly horizon: number;
  /** Turn horizon under the PPDPP protocol (actor turns). */
  readonly ppdppHorizon: number;
}

/**
 * Which records of the seed builders (`src/tasks/builders.ts`) play which part in the simulator's text rules, and
 * which topics are a call to action (docs/architecture.md "Tasks as folders").
 */
export interface TaskRules {
  /** The intention whose strength measures progress toward the actor's goal. */
  goalIntention: string;
  /** The opposing intention (withdraw, decline, hold the price). */
  againstIntention: string;
  /** The belief that the actor is sincere / listening. */
  rapportBelief: string;
  /** Topics whose mention asks the user to act (suggestion, donation request, price offer). */
  callToAction: readonly string[];
  /**
   * Topics that, asked about in a question, are an inquiry rather than an argument (the buyer asking about the
   * seller's item: "How old is it?"); elsewhere a question that names a topic still counts as Influence.
   */
  inquiryTopics: readonly string[];
  /**
   * Whether a call to action can raise the goal intention only as far as the user's attitude toward the act
   * supports (see `attitudeLevel` in `src/sim/template/proposer.ts`): true where the act is a costly choice the
   * user makes for themselves (P4G: giving part of one's own pay). ESConv's step and CB's concession have their own
   * mechanisms (coping beliefs; the seller's acceptable price) and are not bounded this way.
   */
  attitudeBound: boolean;
  /**
   * Whether the user, asked what holds them back, names their strongest voiced objection before an unrevealed
   * concern (`nextReveal` in src/sim/simulator.ts): true where refusing a request comes with its reason (P4G).
   */
  revealsObjections: boolean;
}

/** The judge's scores that success is decided on (each field is needed only by its own task). */
export interface SuccessScores {
  /** ESConv: emotional improvement E in [0, 4]. */
  E?: number;
  /** ESConv: action-plan feasibility A in [0, 4]. */
  A?: number;
  /** P4G: a public commitment was made. */
  committed?: boolean;
  /** P4G: the commitment was withdrawn. */
  withdrawn?: boolean;
  /** CraigslistBargain: the CSTPO utility of the deal in [0, 1] (0 without a deal). */
  utility?: number;
  /** CraigslistBargain: a deal was closed. */
  deal?: boolean;
}

/** The polarity of the user's emotional state that the template ARG actor answers (negative ≤ 2 < neutral < 4 ≤ positive on 1–5). */
export type Polarity = 'negative' | 'neutral' | 'positive';

/**
 * One task, whole (Gymnasium's registered environment spec, as data): its labels and lexicon ({@link TaskSpec}),
 * what it can do, its rules and dynamics constants, success, judge questions, prompt fragments, validity hooks and
 * default seeds. Each task is a folder of `src/tasks` (`esconv/`, `p4g/`, `cb/`) whose `index.ts` assembles one of
 * these; `src/tasks/registry.ts` lists them, one line per task, and every other folder reads a task's knowledge
 * through `getTask(id)` (docs/architecture.md "Tasks as folders").
 */
export interface TaskDefinition extends TaskSpec {
  /** The catch-all strategy label of `strategies` ("Others", "Other", "other"). */
  readonly otherStrategy: string;
  /** The strategy label that asks the user to act (a suggestion, a donation request, a price offer). */
  readonly goalStrategy: string;
  /** What the task's dialogue carries beyond text. */
  readonly capabilities: {
    /** Prices are offered, countered and accepted (the user's last price is tracked; offers are task events). */
    readonly prices: boolean;
    /** The user can commit to the goal publicly and withdraw the commitment (commit / withdraw events). */
    readonly commitments: boolean;
  };
  /** What success means (`src/tasks/success.ts`). */
  readonly success: {
    /** One line in plain words, for the README, reports and `--help`. */
    readonly text: string;
    /** The rule over the judge's scores. @throws InputError (SUCCESS_INPUT) when a score it needs is missing. */
    readonly isSuccess: (scores: SuccessScores) => boolean;
  };
  /** Which records and topics play which part in the simulator's text rules. */
  readonly rules: TaskRules;
  /** Scales of the fitted perception's effect on the simulated user's valence (`fittedAffectChange`, src/sim/simulator.ts). */
  readonly dynamics: {
    /** Valence change per unit of fitted tone (0: the appraisal-driven update alone). */
    readonly affectScale: number;
    /** Valence change per unit of the fitted mood shift (0: no mood model). */
    readonly moodScale: number;
  };
  /** The judge's questions and per-turn answers (Cog-Sim paper §E.2; PPDPP, Deng et al. 2024). */
  readonly judge: {
    /** The terminal question of the LLM judge (CSTPO protocol). */
    readonly terminalQuestion: string;
    /** The per-turn question of the LLM judge (PPDPP protocol). */
    readonly turnQuestion: string;
    /** The PPDPP per-turn answers, worst to best (rewards −1, −0.5, 0.5, 1). */
    readonly turnLabels: readonly [string, string, string, string];
  };
  /** Prompt fragments of the language roles. */
  readonly prompts: {
    /** What the conversation is, in one clause (who talks with whom about what). */
    readonly setting: string;
    /** Who Ask-an-Expert's adviser is (Zhang et al., 2024), e.g. "an experienced counsellor". */
    readonly expert: string;
    /** The LLM responder's instruction when the simulated user quits (src/sim/llm/prompts/responder.ts). */
    readonly userQuit: string;
    /** The LLM responder's instruction when the simulated user ends the conversation content. */
    readonly userEnd: string;
    /** MI-Prompt's instruction for every strategy label (Chen et al., 2023). */
    readonly miInstructions: Readonly<Record<string, string>>;
    /** The strategy the template ARG actor picks for each polarity of the user's emotional state. */
    readonly argStrategy: Readonly<Record<Polarity, string>>;
    /** The template ARG reverse predictor's two needs of a user talking about `topic`. */
    readonly argNeeds: (topic: string) => string[];
  };
  /** Hooks of the validity replay, report and exploit table (`src/validity`). */
  readonly validity: {
    /** The reaction classes of the replay, in report order (`src/validity/labels.ts`). */
    readonly reactions: readonly string[];
    /** The reaction class that is toward the goal. */
    readonly positive: string;
    /** The reaction class that is against it. */
    readonly negative: string;
    /** What the per-turn reaction is called in the report. */
    readonly reactionName: string;
    /**
     * The default dose ladder (`DEFAULT_LADDERS`, src/eval/ladders.ts; docs/architecture.md "Simulator validation"):
     * ordered levels of paraphrases under which the outcome quantity should rise; `priceFraction` (tasks with prices
     * only, required there) turns `{price}` in an utterance into that fraction of the seed's list price.
     */
    readonly doseLadder: { levels: { utterances: string[]; priceFraction?: number }[] };
    /** The dose ladder's outcome quantity, in words. */
    readonly doseOutcome: string;
    /** The keyword-stuffing exploit's text: words a naive keyword reader would reward, strung together. */
    readonly stuffing: string;
    /** The word-salad exploit's text: the task's persuasive words with no sentence around them. */
    readonly wordSalad: string;
    /**
     * The several-prices exploit's text for a task without prices (absent where `capabilities.prices`: the
     * exploit names prices around the buyer's target there).
     */
    readonly manyPrices?: string;
    /** A reply saying the user will or might act toward the goal (absent: the task has no such lean). */
    readonly lean?: RegExp;
    /** A reply saying the user will not act (absent with `lean`). */
    readonly refuse?: RegExp;
  };
  /** CSTPO's default checkpoints per main trajectory (paper §B.2). */
  readonly checkpoints: number;
  /** The authored default seeds (written for this project, no dataset sentences; shared: copy before changing). */
  readonly defaultSeeds: readonly Seed[];
  /**
   * Named seed sets of the task beyond its default seeds, by name (e.g. EmoLLM's four settings on `esconv`),
   * selected by a job's `seedSet` option and the commands' `--seed-set NAME` (src/tasks/seed-sets.ts). Absent:
   * the task has none.
   */
  readonly seedSets?: Readonly<Record<string, SeedSetDefinition>>;
}

/**
 * One named seed set of a task (TRL's named dataset configurations, as data): bundled seeds that play the task's
 * rules and judge under a protocol of their own — a turn cap and a success rule — such as one EmoLLM setting
 * (EmoLLM paper §4). A set may be the union of other sets of the same task (`members`): an evaluation then
 * reports each member apart, and a simulation plays each member's seeds as one group.
 */
export interface SeedSetDefinition {
  /** The set's name, unique within its task (`emollm-ed`). */
  readonly name: string;
  /** Human-readable title, e.g. "EmoLLM technical assistance (MSDialog-like)"; a union joins its members' with "; ". */
  readonly title: string;
  /** The names of the task's sets this one is the union of, in order (absent: a set of its own seeds). */
  readonly members?: readonly string[];
  /** A fresh copy of the set's seeds, safe to mutate (a union: its members' seeds in member order). */
  readonly seeds: () => Seed[];
  /**
   * Reads a user's file of seeds of this set, in the set's own format (EmoLLM scenario JSONL), `file` naming it in
   * errors. Absent: such files are the task's datasets or seed files. @throws DataFormatError naming file:line.
   */
  readonly parseFile?: (text: string, file: string) => Seed[];
  /** The default episode horizon in actor turns (absent: the task's protocol horizon). */
  readonly horizon?: number;
  /** The set's own per-turn success rule, when it has one (EmoLLM's "resolved" turn, src/tasks/success.ts). */
  readonly success?: {
    /** One line in plain words. */
    readonly text: string;
    /** Whether an actor turn resolves the scenario, from the user's visible states on the 1–5 scale. */
    readonly isResolved: (r: {
      state: number;
      previousState: number | null;
      initialState: number;
      closing: boolean;
    }) => boolean;
  };
}
