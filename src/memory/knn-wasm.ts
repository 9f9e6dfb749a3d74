/**
 * A WebAssembly SIMD kernel for the first pass of exact L2 retrieval: squared L2 distances of every row of a
 * row-major `count × dim` matrix of float32 (or of float16, widened exactly to float32 as they are read) to one
 * float32 query, in float32, four f32x4 accumulators per row (16 elements a step, then 4, then a scalar tail). The module is assembled here from its instructions (about 550 bytes; no
 * binary is downloaded or shipped) and reads the matrix where the index keeps it: in the index's own
 * `WebAssembly.Memory`, so no row is ever copied for a search.
 *
 * The float32 sums are not the answer: `knn.ts` keeps every row whose float32 distance is within a proven
 * rounding bound of the k-th smallest and re-ranks those exactly in double precision, so results equal the
 * plain scan's (Principles paper §3.3, FAISS `IndexFlatL2`).
 */

/** The kernel's export: `l2sq(rowsPtr, count, dim, queryPtr, outPtr)`; byte offsets into the memory. */
export type L2Kernel = (rows: number, count: number, dim: number, query: number, out: number) => void;

// Value types, block type and opcodes used below (WebAssembly core spec §5.3–5.4, SIMD proposal).
const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;
const VOID = 0x40;
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  get: 0x20,
  set: 0x21,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Shl: 0x74,
  i32And: 0x71,
  f32Load: 0x2a,
  i32Load16S: 0x2e,
  i32ShrU: 0x76,
  f32Reinterpret: 0xbe,
  f32Store: 0x38,
  f32Add: 0x92,
  f32Sub: 0x93,
  f32Mul: 0x94,
} as const;
/** SIMD instructions: the 0xfd prefix, then the LEB128 sub-opcode. */
const simd = {
  load: [0xfd, 0x00],
  const: [0xfd, 0x0c],
  extractLane: [0xfd, 0x1f],
  add: [0xfd, 0xe4, 0x01],
  sub: [0xfd, 0xe5, 0x01],
  mul: [0xfd, 0xe6, 0x01],
  load16x4S: [0xfd, 0x03],
  and: [0xfd, 0x4e],
  i32x4Shl: [0xfd, 0xab, 0x01],
} as const;

// Locals: the five parameters, then the kernel's own.
const X = 0; // rows pointer, advanced by one row each iteration
const N = 1; // rows left
const DIM = 2;
const Q = 3; // query pointer
const OUT = 4; // output pointer, advanced by 4 bytes each row
const J = 5; // byte offset within the row
const END16 = 6; // bytes covered by 16-float steps
const END4 = 7; // bytes covered by 4-float steps
const ROW = 8; // bytes per row
const A0 = 9; // four f32x4 accumulators
const A1 = 10;
const A2 = 11;
const A3 = 12;
const S = 13; // the row's scalar sum
const T = 14; // a scalar difference
const D = 15; // a v128 difference
// Float16 rows only: the two conversion constants (v128).
const MASK = 16; // i32x4 splat 0x8fffe000
const SCALE = 17; // f32x4 splat 2¹¹²
const QROW = 18; // bytes of the query (DIM·4): where the scalar tail ends

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const name = (s: string): number[] => {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

/** Row element storage the kernel reads: float32, or float16 (IEEE binary16) widened exactly to float32. */
export type RowPrecision = 'float32' | 'float16';

/**
 * Four row elements at byte offset `off` (in query bytes: 4 per element) as an f32x4. Halves are read with
 * `v128.load16x4_s` (sign-extended to 32 bits) and widened exactly: shifted left by 13 and masked to the sign
 * and the 15 bits of exponent and mantissa (`0x8fffe000`), they are a float32 2¹¹² times too small, so one
 * multiplication by 2¹¹² gives the value (subnormal halves included).
 */
function rowLanes(precision: RowPrecision, off: number): number[] {
  if (precision === 'float32') return [op.get, X, op.get, J, op.i32Add, ...simd.load, 2, ...uleb(off)];
  return [
    op.get, X, op.get, J, op.i32Const, 1, op.i32ShrU, op.i32Add, ...simd.load16x4S, 1, ...uleb(off / 2),
    op.i32Const, 13, ...simd.i32x4Shl, op.get, MASK, ...simd.and,
    op.get, SCALE, ...simd.mul,
  ]; // prettier-ignore
}

/** `acc = acc + (row(J + off) − load(Q + J + off))²` for one f32x4 accumulator. */
function accumulate(precision: RowPrecision, acc: number, off: number): number[] {
  return [
    op.get, acc,
    ...rowLanes(precision, off),
    op.get, Q, op.get, J, op.i32Add, ...simd.load, 2, ...uleb(off),
    ...simd.sub, op.set, D,
    op.get, D, op.get, D, ...simd.mul,
    ...simd.add, op.set, acc,
  ]; // prettier-ignore
}

/** One row element at byte offset J (query bytes) as an f32, widened from a half where the rows are halves. */
function rowScalar(precision: RowPrecision): number[] {
  if (precision === 'float32') return [op.get, X, op.get, J, op.i32Add, op.f32Load, 2, 0];
  return [
    op.get, X, op.get, J, op.i32Const, 1, op.i32ShrU, op.i32Add, op.i32Load16S, 1, 0,
    op.i32Const, 13, op.i32Shl, op.i32Const, ...sleb(0x8fffe000 | 0), op.i32And, op.f32Reinterpret,
    0x43 /* f32.const */, ...f32Bytes(2 ** 112), op.f32Mul,
  ]; // prettier-ignore
}

/** Little-endian bytes of a float32 constant. */
function f32Bytes(x: number): number[] {
  return [...new Uint8Array(Float32Array.of(x).buffer)];
}

/** A v128 constant of four equal 32-bit lanes (`bits` as an int32, or a float32 when `float`). */
function splat(x: number, float: boolean): number[] {
  const lane = float ? f32Bytes(x) : [...new Uint8Array(Int32Array.of(x).buffer)];
  return [...simd.const, ...lane, ...lane, ...lane, ...lane];
}

/** `while (J < end) { body; J += step }` */
function loopUntil(end: number, step: number, body: number[]): number[] {
  return [
    op.block, VOID, op.loop, VOID,
    op.get, J, op.get, end, op.i32GeU, op.brIf, 1,
    ...body,
    op.get, J, op.i32Const, ...sleb(step), op.i32Add, op.set, J,
    op.br, 0,
    op.end, op.end,
  ]; // prettier-ignore
}

/**
 * The kernel module's bytes (validated by {@link compileL2Kernel}), for rows of `precision` (the query is
 * float32 either way; a row of float16 takes `dim × 2` bytes).
 */
export function l2KernelBytes(precision: RowPrecision = 'float32'): Uint8Array<ArrayBuffer> {
  const zero = [...simd.const, ...new Array<number>(16).fill(0)];
  const lane = (i: number): number[] => [op.get, A0, ...simd.extractLane, i];
  const body = [
    ...(precision === 'float16'
      ? [...splat(0x8fffe000 | 0, false), op.set, MASK, ...splat(2 ** 112, true), op.set, SCALE]
      : []),
    // ROW = DIM·4 (DIM·2 for halves); END16 = (DIM & ~15)·4; END4 = (DIM & ~3)·4 (offsets in query bytes)
    op.get, DIM, op.i32Const, precision === 'float16' ? 1 : 2, op.i32Shl, op.set, ROW,
    op.get, DIM, op.i32Const, 2, op.i32Shl, op.set, QROW,
    op.get, DIM, op.i32Const, ...sleb(-16), op.i32And, op.i32Const, 2, op.i32Shl, op.set, END16,
    op.get, DIM, op.i32Const, ...sleb(-4), op.i32And, op.i32Const, 2, op.i32Shl, op.set, END4,
    op.block, VOID, op.loop, VOID,
    // while (N != 0)
    op.get, N, 0x45 /* i32.eqz */, op.brIf, 1,
    ...zero, op.set, A0, ...zero, op.set, A1, ...zero, op.set, A2, ...zero, op.set, A3,
    op.i32Const, 0, op.set, J,
    ...loopUntil(END16, 64, [
      ...accumulate(precision, A0, 0), ...accumulate(precision, A1, 16),
      ...accumulate(precision, A2, 32), ...accumulate(precision, A3, 48),
    ]),
    ...loopUntil(END4, 16, accumulate(precision, A0, 0)),
    // A0 = (A0 + A1) + (A2 + A3); S = (lane0 + lane1) + (lane2 + lane3)
    op.get, A0, op.get, A1, ...simd.add, op.get, A2, op.get, A3, ...simd.add, ...simd.add, op.set, A0,
    ...lane(0), ...lane(1), op.f32Add, ...lane(2), ...lane(3), op.f32Add, op.f32Add, op.set, S,
    ...loopUntil(QROW, 4, [
      ...rowScalar(precision),
      op.get, Q, op.get, J, op.i32Add, op.f32Load, 2, 0,
      op.f32Sub, op.set, T,
      op.get, S, op.get, T, op.get, T, op.f32Mul, op.f32Add, op.set, S,
    ]),
    op.get, OUT, op.get, S, op.f32Store, 2, 0,
    op.get, OUT, op.i32Const, 4, op.i32Add, op.set, OUT,
    op.get, X, op.get, ROW, op.i32Add, op.set, X,
    op.get, N, op.i32Const, ...sleb(-1), op.i32Add, op.set, N,
    op.br, 0,
    op.end, op.end,
    op.end,
  ]; // prettier-ignore
  // Locals after the params: 4 × i32 (J, END16, END4, ROW), 4 × v128 (A0–A3), 2 × f32 (S, T), 3 × v128 (D,
  // MASK, SCALE), 1 × i32 (QROW).
  const locals = vec([
    [4, I32],
    [4, V128],
    [2, F32],
    [3, V128],
    [1, I32],
  ]);
  const code = [...locals, ...body];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0]])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x00]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('l2sq'), 0x00, 0]])),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ]); // prettier-ignore
}

/**
 * Compiles the kernel against `memory`, or returns null where WebAssembly or its SIMD extension is missing
 * (the index then scans in JavaScript).
 */
export function compileL2Kernel(
  memory: WebAssembly.Memory,
  precision: RowPrecision = 'float32',
): L2Kernel | null {
  if (typeof WebAssembly !== 'object') return null;
  const bytes = l2KernelBytes(precision);
  if (!WebAssembly.validate(bytes)) return null;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
  return instance.exports.l2sq as L2Kernel;
}
