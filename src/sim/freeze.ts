/**
 * Deep freezing of plain data (objects and arrays). Simulator states and turn records are immutable values
 * shared between the environment, its `info` and trajectories; freezing them makes an accidental mutation throw
 * a TypeError (in strict-mode code) instead of silently changing the environment.
 */

/** Freeze `value` and everything reachable from it; returns it. Already-frozen parts are skipped. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Walked without Object.values, which allocated an array per object (8% of an episode's allocation).
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else {
      const obj = value as Record<string, unknown>;
      for (const key in obj) if (Object.hasOwn(obj, key)) deepFreeze(obj[key]);
    }
  }
  return value;
}
