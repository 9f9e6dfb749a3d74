/** Vite's `?url` asset imports (a URL string); used by `wasm-assets.ts` only. */
declare module '*.wasm?url' {
  const url: string;
  export default url;
}
