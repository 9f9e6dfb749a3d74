/** Deterministic per-record seeds for dataset dialogues. */

/**
 * 32-bit FNV-1a hash (Fowler, Noll & Vo) of a string's UTF-16 code units, finished with the MurmurHash3
 * `fmix32` avalanche step so that keys differing in one character (`file:12`, `file:13`) give unrelated
 * values. An unsigned integer in [0, 2^32); used as the `randomSeed` of dataset seeds.
 */
export function hashKey32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
