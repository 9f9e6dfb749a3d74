/** Vite's `?url` asset imports of JavaScript modules (a URL string); used by `minilm-assets.ts` only. */
declare module '*.mjs?url' {
  const url: string;
  export default url;
}
