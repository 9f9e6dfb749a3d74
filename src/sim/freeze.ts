/**
 * Deep freezing of plain data (objects and arrays). Simulator states and turn records are immutable values
 * shared between the environment, its `info` and trajectories; freezing them makes an accidental mutation throw
 * a TypeError (in strict-mode code) instead of silently changing the environment.
 */

/** Freeze `value` and everything reachable from it; returns it. Already-frozen parts are skipped. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
