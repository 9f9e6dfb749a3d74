/**
 * Browsing one memory's principles: a search over every part of a principle (and its strategy label), a filter
 * by label and by how the principle was derived, and each principle shown with its four parts, its provenance
 * and its revision trail (the strategies that failed before the one that worked, and the critic's rewards).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { Principle } from '../../../src/entries/policies';
import { Field, Term } from '../glossary';

/** Principles shown at once (more with "Show more"). */
export const PAGE_SIZE = 20;

/**
 * The principles matching `query` (case-insensitive, every word somewhere in the principle's four parts, its
 * strategy labels or its example utterance), of `strategy` ('' for any) and of `origin` ('' for any).
 */
export function searchPrinciples(
  principles: readonly Principle[],
  query: string,
  strategy = '',
  origin = '',
): Principle[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return principles.filter((p) => {
    if (strategy && p.strategy !== strategy) return false;
    if (origin && p.provenance.origin !== origin) return false;
    const text = [
      p.when,
      p.should,
      p.ratherThan ?? '',
      p.because,
      p.strategy,
      ...p.failedStrategies,
      p.provenance.utterance,
    ]
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** How a principle was derived, as the filter and the query table name it. */
export const ORIGIN_LABELS: Readonly<Record<string, string>> = {
  success: 'first try',
  revision: 'revision',
  online: 'online',
};

const ORIGIN_WORDS: Record<string, string> = {
  success: 'the first try improved the reward',
  revision: 'found by revision after failed tries',
  online: 'learned while deployed',
};

/** One principle: the four parts, provenance and revision trail. */
export function PrincipleCard({ p }: { p: Principle }) {
  const v = p.provenance;
  return html`<article class="principle" aria-label=${`Principle ${p.id}`}>
    <dl class="four-parts">
      <div>
        <dt>When</dt>
        <dd>${p.when}</dd>
      </div>
      <div>
        <dt>You should</dt>
        <dd>
          ${p.should}${
            p.should.toLowerCase().includes(p.strategy.toLowerCase())
              ? ''
              : html` <span class="muted">(label: ${p.strategy})</span>`
          }
        </dd>
      </div>
      ${
        p.ratherThan !== undefined &&
        html`<div>
          <dt>Rather than</dt>
          <dd>${p.ratherThan}</dd>
        </div>`
      }
      <div>
        <dt>Because</dt>
        <dd>${p.because}</dd>
      </div>
    </dl>
    <details>
      <summary>Provenance and revision trail</summary>
      <ul class="provenance">
        <li>
          From seed <code>${v.seedId}</code>, turn ${v.turn + 1}; ${ORIGIN_WORDS[v.origin] ?? v.origin}.
        </li>
        <li>
          ${
            p.failedStrategies.length > 0
              ? `Revision trail: ${p.failedStrategies.map((s) => `${s} (failed) → `).join('')}${p.strategy} ` +
                `(worked), after ${v.attempts} failed ${v.attempts === 1 ? 'try' : 'tries'}.`
              : html`No revision: <code>${p.strategy}</code> worked at the first try.`
          }
        </li>
        <li>
          Critic's reward: ${v.rewardBefore.toFixed(3)} before → ${v.rewardAfter.toFixed(3)} after (<${Term}
            term="critic reward"
            label="?"
            where=${`principle ${p.id}`}
          />).
        </li>
        <li>What the actor said: “${v.utterance}”</li>
        <li class="muted">id ${p.id}</li>
      </ul>
    </details>
  </article>`;
}

/** The browser of one memory's principles (`principles` already loaded from the worker). */
export function PrincipleBrowser(props: {
  name: string;
  principles: readonly Principle[];
  query: string;
  onQuery: (q: string) => void;
}) {
  const [strategy, setStrategy] = useState('');
  const [origin, setOrigin] = useState('');
  const [shown, setShown] = useState(PAGE_SIZE);
  const labels = [...new Set(props.principles.map((p) => p.strategy))].sort();
  const found = searchPrinciples(props.principles, props.query, strategy, origin);
  return html`<section aria-labelledby="browse-title" class="browse">
    <h2 id="browse-title" tabindex="-1">Principles of “${props.name}”</h2>
    <fieldset>
      <legend>Find principles</legend>
      <${Field} id="pr-search" label="Search the principles" term="principle">
        <input
          id="pr-search"
          type="search"
          value=${props.query}
          onInput=${(e: Event) => props.onQuery((e.target as HTMLInputElement).value)}
        />
      </${Field}>
      <${Field} id="pr-label" label="Strategy label" term="strategy label">
        <select id="pr-label" value=${strategy} onChange=${(e: Event) => setStrategy((e.target as HTMLSelectElement).value)}>
          <option value="">any</option>
          ${labels.map((l) => html`<option value=${l}>${l}</option>`)}
        </select>
      </${Field}>
      <${Field} id="pr-origin" label="Derived by" term="revision" where="filter">
        <select id="pr-origin" value=${origin} onChange=${(e: Event) => setOrigin((e.target as HTMLSelectElement).value)}>
          <option value="">any</option>
          ${Object.entries(ORIGIN_LABELS).map(([v, l]) => html`<option value=${v}>${l}</option>`)}
        </select>
      </${Field}>
    </fieldset>
    <p role="status" class="found">
      ${found.length} of ${props.principles.length} principles match${found.length > shown ? `; showing the first ${shown}` : ''}.
    </p>
    ${found.slice(0, shown).map((p) => html`<${PrincipleCard} key=${p.id} p=${p} />`)}
    ${
      found.length > shown &&
      html`<button type="button" onClick=${() => setShown(shown + PAGE_SIZE)}>Show ${PAGE_SIZE} more</button>`
    }
  </section>`;
}
