/**
 * A WebAssembly SIMD kernel for the first pass of exact L2 retrieval: squared L2 distances of every row of a
 * row-major `count × dim` float32 matrix to one query, in float32, four f32x4 accumulators per row (16 floats a
 * step, then 4, then a scalar tail). The module is assembled here from its instructions (about 550 bytes; no
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

/** `acc = acc + (load(X + J + off) − load(Q + J + off))²` for one f32x4 accumulator. */
function accumulate(acc: number, off: number): number[] {
  const mem = [2, ...uleb(off)]; // align 2^2 (float32 rows), offset
  return [
    op.get, acc,
    op.get, X, op.get, J, op.i32Add, ...simd.load, ...mem,
    op.get, Q, op.get, J, op.i32Add, ...simd.load, ...mem,
    ...simd.sub, op.set, D,
    op.get, D, op.get, D, ...simd.mul,
    ...simd.add, op.set, acc,
  ]; // prettier-ignore
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

/** The kernel module's bytes (validated by {@link compileL2Kernel}). */
export function l2KernelBytes(): Uint8Array<ArrayBuffer> {
  const zero = [...simd.const, ...new Array<number>(16).fill(0)];
  const lane = (i: number): number[] => [op.get, A0, ...simd.extractLane, i];
  const body = [
    // ROW = DIM·4; END16 = (DIM & ~15)·4; END4 = (DIM & ~3)·4
    op.get, DIM, op.i32Const, 2, op.i32Shl, op.set, ROW,
    op.get, DIM, op.i32Const, ...sleb(-16), op.i32And, op.i32Const, 2, op.i32Shl, op.set, END16,
    op.get, DIM, op.i32Const, ...sleb(-4), op.i32And, op.i32Const, 2, op.i32Shl, op.set, END4,
    op.block, VOID, op.loop, VOID,
    // while (N != 0)
    op.get, N, 0x45 /* i32.eqz */, op.brIf, 1,
    ...zero, op.set, A0, ...zero, op.set, A1, ...zero, op.set, A2, ...zero, op.set, A3,
    op.i32Const, 0, op.set, J,
    ...loopUntil(END16, 64, [...accumulate(A0, 0), ...accumulate(A1, 16), ...accumulate(A2, 32), ...accumulate(A3, 48)]),
    ...loopUntil(END4, 16, accumulate(A0, 0)),
    // A0 = (A0 + A1) + (A2 + A3); S = (lane0 + lane1) + (lane2 + lane3)
    op.get, A0, op.get, A1, ...simd.add, op.get, A2, op.get, A3, ...simd.add, ...simd.add, op.set, A0,
    ...lane(0), ...lane(1), op.f32Add, ...lane(2), ...lane(3), op.f32Add, op.f32Add, op.set, S,
    ...loopUntil(ROW, 4, [
      op.get, X, op.get, J, op.i32Add, op.f32Load, 2, 0,
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
  // Locals after the params: 4 × i32 (J, END16, END4, ROW), 4 × v128 (A0–A3), 2 × f32 (S, T), 1 × v128.
  const locals = vec([
    [4, I32],
    [4, V128],
    [2, F32],
    [1, V128],
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
export function compileL2Kernel(memory: WebAssembly.Memory): L2Kernel | null {
  if (typeof WebAssembly !== 'object') return null;
  const bytes = l2KernelBytes();
  if (!WebAssembly.validate(bytes)) return null;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
  return instance.exports.l2sq as L2Kernel;
}
