/**
 * The V8 heap policy of the long-running commands (`simulate`, `evaluate`): after each full garbage collection
 * the heap may grow to the live size plus {@link HEAP_GROWING_PERCENT} percent before the next one (V8's
 * `--heap-growing-percent`), instead of V8's default factor of up to 4×, which it picks when collections are
 * cheap relative to the program's own work — as they are for these jobs, whose live data is small (the loaded text
 * models and seeds, one episode at a time and the summary's outcomes) while they allocate fast. With the default,
 * `simulate --task esconv --episodes 20000 --out F` peaked at 345 MB resident without holding more live data
 * than at 200 episodes; with this policy it peaks at 222 MB, and 100,000 episodes at 224 MB, near the start-up
 * footprint of about 170 MB (tsx's loader thread, the text models; the aim: under 300 MB; `npm run bench
 * -- --filter simulate/peak-memory`). The young generation's semi-spaces are capped at {@link MAX_SEMI_SPACE_MB}
 * MB (V8 grows them to 16 MB or more, which the short-lived garbage of an episode fills, about 50 MB resident
 * over the process): `evaluate --task esconv --policy random --episodes 3000` peaked at 267 MB with V8's default
 * and 221 MB with it, and 100,000 episodes peak at 284 MB (`npm run bench -- --filter evaluate/peak-memory`).
 *
 * This is no cap: a job that really holds more data still grows to Node's usual heap limit (unlike
 * `--max-old-space-size`, which would crash big legitimate runs); it only spends a few more full collections
 * (measured at 20,000 episodes: 4% more CPU time). Process-wide, so the evaluation pool's worker threads share it. Set at
 * start-up through `v8.setFlagsFromString`: V8 reads this flag each time it sizes the heap after a collection.
 */
import { setFlagsFromString } from 'node:v8';

/** Heap growth allowed over the live size after a full collection, in percent (V8 `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 25;

/**
 * The most each of the young generation's semi-spaces may grow to, in MB (V8 `--max-semi-space-size`; V8's default
 * lets it grow to 16 MB or more, which these jobs' short-lived garbage fills).
 */
export const MAX_SEMI_SPACE_MB = 2;

/** Applies the heap policy above to this process (call once, first thing in a command's entry). */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--max-semi-space-size=${MAX_SEMI_SPACE_MB}`);
}
