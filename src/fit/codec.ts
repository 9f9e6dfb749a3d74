/**
 * Compact, exact encodings of the fitted parameters for the committed JSON file: typed arrays as base64 (little
 * endian, as every supported engine stores them) and weights quantised to a fixed step. Works in Node and browsers
 * (`btoa` / `atob` are global in both).
 */

/** Base64 of a byte array. */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x8000)));
  return btoa(s);
}

/** The bytes of a base64 string. */
export function base64ToBytes(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Base64 of a Uint32Array. */
export function u32ToBase64(a: Uint32Array): string {
  return bytesToBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

/** The Uint32Array of a base64 string written by {@link u32ToBase64}. */
export function base64ToU32(text: string): Uint32Array {
  const b = base64ToBytes(text);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
}

/** Base64 of a Uint16Array. */
export function u16ToBase64(a: Uint16Array): string {
  return bytesToBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

/** The Uint16Array of a base64 string written by {@link u16ToBase64}. */
export function base64ToU16(text: string): Uint16Array {
  const b = base64ToBytes(text);
  return new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2);
}

/** The quantisation step of stored weights: 1/1000 (the models' outputs move by < 0.5% from it). */
export const WEIGHT_STEP = 1e-3;

/**
 * A weight vector as sparse integer pairs: `[index, round(w / step)]` flattened, weights that round to 0
 * dropped (pruning). Deterministic.
 */
export function quantise(weights: ArrayLike<number>, step = WEIGHT_STEP): number[] {
  const out: number[] = [];
  for (let i = 0; i < weights.length; i++) {
    const q = Math.round((weights[i] as number) / step);
    if (q !== 0) out.push(i, q);
  }
  return out;
}

/** The dense weight vector of length `length` from {@link quantise}'s pairs. */
export function dequantise(pairs: readonly number[], length: number, step = WEIGHT_STEP): Float64Array {
  const w = new Float64Array(length);
  for (let i = 0; i + 1 < pairs.length; i += 2) w[pairs[i] as number] = (pairs[i + 1] as number) * step;
  return w;
}
