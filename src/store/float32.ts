/**
 * Float32 arrays as base64 of their bytes (little-endian), so values round-trip bit-exactly through a text —
 * the encoding of run snapshots (`{ "$f32": "…" }`, src/runs/text.ts) in every back end of the text store.
 * Browser-safe (btoa/atob).
 */
import { CheckpointError } from '../errors';

/** Whether this platform stores float32 little-endian (then the bytes need no swapping). */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/** Base64 of the little-endian bytes of `v`. */
export function float32ToBase64(v: Float32Array): string {
  let bytes: Uint8Array;
  if (LITTLE_ENDIAN) bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  else {
    bytes = new Uint8Array(v.length * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i] as number, true);
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x2000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x2000)));
  return btoa(binary);
}

/**
 * The array of {@link float32ToBase64}.
 * @throws CheckpointError (RUN_FLOAT32_INVALID) when `text` is not base64 or its bytes are not a whole number of
 *   float32 (the run stores turn it into their damaged-run error naming the text).
 */
export function base64ToFloat32(text: string): Float32Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new CheckpointError('RUN_FLOAT32_INVALID', 'a $f32 payload is not base64');
  }
  if (binary.length % 4 !== 0)
    throw new CheckpointError(
      'RUN_FLOAT32_INVALID',
      `a $f32 payload has ${binary.length} bytes, not a multiple of 4`,
    );
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer);
  const view = new DataView(bytes.buffer);
  return Float32Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}
