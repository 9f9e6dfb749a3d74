/**
 * Trace how Cog-Sim perceives single ESConv supporter turns: each utterance is applied alone from one
 * checkpoint per seed — the state right after the seed's prefix, deterministic routes, as `ladderDoseResponse`
 * does — and the script prints the utterance's features and, per seed and on average, the mode, route, judgment,
 * appraisal and valence change it causes. Seeds are the first N dev dialogues of the shared ESConv file (the
 * held-out fifth, `splitOf` in src/validity/datasets.ts, is never read: it must not choose rules).
 *
 *   npx tsx scripts/trace-perception.ts                       # "Okay.", "I see." and the default ladder's lines
 *   npx tsx scripts/trace-perception.ts --seeds 5 --verbose "I hear you." "That sounds awful."
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DialogueEnv, extractFeatures } from '../src/entries/simulator';
import { DEFAULT_LADDERS } from '../src/entries/evaluation';
import { esconvDialogues, splitOf } from '../src/entries/validity';

const FILE = resolve(import.meta.dirname, '../../shared/data/esconv/esconv-valid.jsonl');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seeds: { type: 'string', default: '20' }, verbose: { type: 'boolean', default: false } },
});
const count = Number(values.seeds);
if (!Number.isInteger(count) || count < 1)
  throw new Error(`--seeds must be a positive integer, got ${values.seeds}`);

const utterances =
  positionals.length > 0
    ? positionals
    : ['Okay.', 'I see.', ...DEFAULT_LADDERS.esconv.levels.flatMap((level) => level.utterances)];
const seeds = esconvDialogues({ name: 'esconv-valid.jsonl', text: readFileSync(FILE, 'utf8') })
  .filter((d) => splitOf(d.id) === 'dev')
  .slice(0, count)
  .map((d) => d.seed);

const f3 = (x: number) => x.toFixed(3);
console.log('features (without context):');
for (const [i, u] of utterances.entries()) {
  const f = extractFeatures(u);
  console.log(
    `  #${i} warmth ${f3(f.warmth)} tone ${f3(f.sentiment)} question ${f.question} suggestion ${f3(f.suggestion)} ` +
      `dismissive ${f3(f.dismissive)} pressure ${f3(f.pressure)} specificity ${f3(f.specificity)} | ${u}`,
  );
}

const env = new DialogueEnv('esconv', { routeSampling: 'deterministic' });
const changes = utterances.map(() => [] as number[]);
for (const seed of seeds) {
  env.reset({ seed });
  const checkpoint = env.checkpoint();
  const before = checkpoint.sim.cognitive;
  if (values.verbose)
    console.log(
      `\n${seed.id}: valence ${f3(before.affect.valence)}, GC ${f3(before.appraisal.GC)} CP ${f3(before.appraisal.CP)} ` +
        `FE ${f3(before.appraisal.FE)}`,
    );
  for (const [i, utterance] of utterances.entries()) {
    env.restore(checkpoint);
    const step = await env.step({ strategy: '', utterance });
    const after = step.info.state.cognitive;
    const change = after.affect.valence - before.affect.valence;
    changes[i]?.push(change);
    if (values.verbose) {
      const t = step.info.sim;
      console.log(
        `  #${i} Δvalence ${f3(change)} ${t.mode} route ${t.route ?? '-'} judgment ${t.judgment ?? '-'} ` +
          `GC ${f3(after.appraisal.GC)} CP ${f3(after.appraisal.CP)} FE ${f3(after.appraisal.FE)}`,
      );
    }
  }
}

console.log(`\nvalence change over ${seeds.length} dev seeds (mean, min, max):`);
for (const [i, xs] of changes.entries())
  console.log(
    `  #${i} ${f3(xs.reduce((s, x) => s + x, 0) / xs.length)} ${f3(Math.min(...xs))} ${f3(Math.max(...xs))} | ` +
      utterances[i],
  );
