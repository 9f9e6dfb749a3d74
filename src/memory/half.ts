import { InputError } from '../errors';
/**
 * IEEE 754 binary16 ("float16", "half") storage of embeddings: a float32 rounded to the nearest half (ties to
 * even, subnormals kept), and a half read back as the float32 it exactly equals. A 384-dimensional unit vector
 * stored as halves keeps each component to a relative 2⁻¹¹ (about 5 × 10⁻⁴) at half the bytes of float32; the
 * retrieval bench (`memory/retrieval`) measures how often the top-3 of the stored halves differs from the
 * top-3 of the float32 originals.
 */

/** The largest finite half (2¹⁵ · (2 − 2⁻¹⁰)). */
export const HALF_MAX = 65_504;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The half nearest to the float32 `x` (ties to even), as its 16 bits.
 * @throws InputError (MEMORY_INPUT_INVALID) when `x` is not finite or rounds beyond {@link HALF_MAX}.
 */
export function toHalf(x: number): number {
  if (!Number.isFinite(x)) throw new InputError('MEMORY_INPUT_INVALID', `${x} cannot be stored as a float16`);
  f32[0] = x;
  const bits = u32[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const e = ((bits >>> 23) & 0xff) - 127 + 15;
  let half: number;
  let rem: number;
  let mid: number;
  if (e <= 0) {
    // A subnormal half (or zero): value / 2⁻²⁴ = significand · 2^(e − 14).
    const shift = 14 - e;
    if (shift > 24) return sign;
    const m = (bits & 0x7fffff) | ((bits >>> 23) & 0xff ? 0x800000 : 0);
    half = m >>> shift;
    rem = m & ((1 << shift) - 1);
    mid = 1 << (shift - 1);
  } else {
    half = (Math.min(e, 31) << 10) | ((bits & 0x7fffff) >>> 13);
    rem = bits & 0x1fff;
    mid = 0x1000;
  }
  if (rem > mid || (rem === mid && (half & 1) === 1)) half++;
  if (half >= 0x7c00)
    throw new InputError(
      'MEMORY_INPUT_INVALID',
      `${x} is beyond the float16 range (±${HALF_MAX}) and cannot be stored`,
    );
  return sign | half;
}

/** The float32 value of every half, indexed by its 16 bits (256 KiB). */
export const HALF_VALUES: Float32Array = (() => {
  const t = new Float32Array(65_536);
  for (let h = 0; h < 65_536; h++) {
    const e = (h >>> 10) & 0x1f;
    const m = h & 0x3ff;
    const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1024 + m) * 2 ** (e - 25);
    t[h] = h & 0x8000 ? -v : v;
  }
  return t;
})();

/** `vector` rounded to halves and read back: the float32 values a float16 store holds for it. */
export function roundToHalves(vector: Float32Array): Float32Array {
  return vector.map((x) => HALF_VALUES[toHalf(x)] as number);
}
