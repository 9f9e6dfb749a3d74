/** The `sentiment` package's English language module (CommonJS; untyped by @types/sentiment); used by `afinn.ts`. */
declare module 'sentiment/languages/en/index.js' {
  import type Sentiment from 'sentiment';
  const english: Sentiment.LanguageModule;
  export default english;
}
