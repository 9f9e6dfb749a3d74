/**
 * An AFINN-165 scorer with a module's own word additions, isolated from every other scorer in the process.
 *
 * The `sentiment` package merges `analyze(text, { extras })` into its one shared English table
 * (`Object.assign(labels, extras)`), so a scorer's additions leaked into every later call of every other scorer —
 * the judge's verdicts then depended on whether EmoLLM's metrics had been computed earlier in the same process.
 * Here each scorer registers its own language (a copy of the English table, emojis included, plus its additions,
 * with English negation handling), and nothing ever passes `extras`.
 */
import Sentiment from 'sentiment';
// The package's English language module: its AFINN-165 labels (emojis are merged in when `sentiment` loads) and
// its negation-aware scoring strategy.
import english from 'sentiment/languages/en/index.js';

const engine = new Sentiment();
const registered = new Set<string>();

/**
 * A function scoring one clause: the sum of AFINN-165 valences (−5…5 per word, negated after a negator such as
 * "not") with `extras` (word → valence on the same scale) replacing or adding entries. `name` identifies the
 * scorer in the process; two calls with the same name must pass the same additions.
 * @throws LabError-free: `sentiment` throws only for an unregistered language, which cannot happen here.
 */
export function afinnScorer(
  name: string,
  extras: Readonly<Record<string, number>>,
): (clause: string) => number {
  const language = `pdl-${name}`;
  if (!registered.has(language)) {
    engine.registerLanguage(language, {
      labels: { ...english.labels, ...extras },
      scoringStrategy: english.scoringStrategy,
    });
    registered.add(language);
  }
  return (clause) => engine.analyze(clause, { language }).score;
}
