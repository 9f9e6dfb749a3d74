/**
 * Counts and articles in messages: `1 episode` / `2 episodes`, `an esconv dataset` / `a cb dataset`.
 * Browser-safe; the words are the project's own (task names, units), so the rules stay simple.
 */

/**
 * `n` followed by `noun` in the singular or plural form.
 * @param n the count.
 * @param noun the singular form (`seed`).
 * @param plural the plural form (default: `noun` + `s`).
 */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** `word` after its indefinite article, told by its first letter: `an esconv`, `a p4g`, `a CSTPO`. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
