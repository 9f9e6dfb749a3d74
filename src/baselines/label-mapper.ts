/**
 * Label mappers: the closest task label of a free-form strategy (Principles paper appendix D.1), so that
 * open-ended baselines (Ask-an-Expert and ICL-AIF in LLM form) get strategy F1 and entropy too. A text that is
 * already a label maps to itself.
 */
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { getTask } from '../tasks';
import type { TaskId } from '../tasks/seed';
import type { Rng } from '../rng';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { labelMapAnswer, labelMapMessages } from './prompts/label-mapper';

/** Maps a strategy text to a label of the task. */
export interface LabelMapper {
  map(task: TaskId, strategy: string, rng: Rng): Promise<string>;
}

/**
 * Nearest label by embedding: each label is described by its name and its MI-Prompt instruction, embedded once
 * per task; a strategy text goes to the label of largest cosine similarity (ties: the earlier label).
 * Deterministic; the random stream is not used.
 */
export class EmbeddingLabelMapper implements LabelMapper {
  private readonly labelVectors = new Map<TaskId, Float32Array[]>();
  constructor(private readonly embedder: Embedder = new HashedNgramEmbedder()) {}

  async map(task: TaskId, strategy: string, _rng: Rng): Promise<string> {
    const labels = getTask(task).strategies;
    if (labels.includes(strategy)) return strategy;
    let vectors = this.labelVectors.get(task);
    if (!vectors) {
      vectors = await this.embedder.embed(
        labels.map((l) => `${l}. ${getTask(task).prompts.miInstructions[l] ?? ''}`),
      );
      this.labelVectors.set(task, vectors);
    }
    const [v] = await this.embedder.embed([strategy]);
    let best = 0;
    let bestScore = -Infinity;
    vectors.forEach((u, i) => {
      const score = cosine(u, v as Float32Array);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    return labels[best] as string;
  }
}

/** Closest label by asking a language model (a structured answer restricted to the label set). */
export class LlmLabelMapper implements LabelMapper {
  constructor(private readonly options: LlmBaselineOptions) {}
  async map(task: TaskId, strategy: string, rng: Rng): Promise<string> {
    if (getTask(task).strategies.includes(strategy)) return strategy;
    const answer = await askBaseline(
      this.options,
      labelMapMessages(task, strategy),
      labelMapAnswer(task),
      rng,
      'label',
    );
    return answer.label;
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
