/**
 * Concurrent work in one thread with results in order (N episodes in flight against one language
 * backend): at most `width` calls of `work` run at once, and `emit` receives each result in item order, one at a
 * time, as soon as every earlier one has been emitted. The first failure stops new items from starting, aborts
 * `stop` (so the work in flight can stop), waits for the rest to settle and is then thrown.
 */

/**
 * Runs `work(item, slot)` over `items` with at most `width` in flight (`slot` in [0, width): which of the `width`
 * lanes runs it, so each lane can own per-item state such as an environment), emitting results in item order.
 * @throws the first error of `work` or `emit` (later errors are dropped).
 */
export async function runOrdered<I, T>(
  items: Iterable<I>,
  width: number,
  work: (item: I, slot: number) => Promise<T>,
  emit: (result: T) => Promise<void> | void,
  stop?: AbortController,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  const done = new Map<number, T>();
  let taken = 0;
  let next = 0;
  let flushing: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown): void => {
    if (!failure) failure = { error };
    stop?.abort(error);
  };
  const flush = (): Promise<void> =>
    (flushing = flushing.then(async () => {
      while (!failure && done.has(next)) {
        const result = done.get(next) as T;
        done.delete(next++);
        try {
          await emit(result);
        } catch (error) {
          fail(error);
        }
      }
    }));
  const lane = async (slot: number): Promise<void> => {
    for (;;) {
      if (failure) return;
      const step = iterator.next();
      if (step.done) return;
      const index = taken++;
      try {
        done.set(index, await work(step.value, slot));
      } catch (error) {
        fail(error);
        return;
      }
      await flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, (_, slot) => lane(slot)));
  await flushing;
  if (failure) throw (failure as { error: unknown }).error;
}
