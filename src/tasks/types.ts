/** The shape of a task definition (label sets, role names, topic lexicons, horizon). */
import type { TaskId } from './seed';

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
