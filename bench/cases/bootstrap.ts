/**
 * Benchmark of the evaluation bootstrap (src/eval): one `bootstrapMean` call with 2,000 resamples over 1,000
 * episodes, each its own case (1,000 clusters, so 2,000,000 cluster draws), and the same call against its floor,
 * the 2,000,000 `Rng.int` draws alone, timed interleaved in the same run.
 */
import { bootstrapMean } from '../../src/entries/evaluation';
import { Rng } from '../../src/entries/simulator';
import { compare, ratioEntry, timingEntry } from '../timing';
import type { Benchmark } from '../types';

const EPISODES = 1000;
const RESAMPLES = 2000;

export const bootstrapBenchmark: Benchmark = {
  name: 'eval/bootstrap',
  async run(ctx) {
    const data = Rng.fromSeed(ctx.seed);
    const values = Array.from({ length: EPISODES }, () => data.next());
    const rng = Rng.fromSeed(ctx.seed + 1);
    let sink = 0;
    const comparison = await compare(
      () => {
        sink += bootstrapMean(values, { rng, resamples: RESAMPLES }).hi;
      },
      () => {
        for (let i = 0; i < RESAMPLES * EPISODES; i++) sink += rng.int(0, EPISODES - 1);
      },
      ctx.timing,
    );
    ctx.log(`median ${comparison.target.median.toFixed(1)} ms per call (checksum ${sink.toFixed(3)})`);
    return [
      timingEntry(`eval/bootstrapMean ${RESAMPLES} resamples x ${EPISODES} episodes`, comparison.target),
      ratioEntry(
        `eval/bootstrapMean ${RESAMPLES} resamples x ${EPISODES} episodes vs rng floor`,
        comparison,
        `${RESAMPLES * EPISODES} Rng.int draws`,
      ),
    ];
  },
};
