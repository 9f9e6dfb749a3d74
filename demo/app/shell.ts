/**
 * The app shell: header with navigation and the glossary, each page's two-sentence introduction, and the page
 * itself, loaded on first visit (dynamic import), so that the first load fetches only the shell and the home page.
 */
import { html } from 'htm/preact';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Glossary } from './glossary';
import { PAGES, route, type PageId } from './router';

/** Navigation title and the two sentences that open each page. */
export const PAGE_INFO: Readonly<Record<PageId, { title: string; intro: string }>> = {
  home: {
    title: 'Home',
    intro:
      'A lab for dialogue that takes the lead: an actor (you, or a policy) tries to support, persuade or bargain ' +
      'with a simulated person whose mind you can open. A judge scores each dialogue, and learning turns the ' +
      'scores into a better actor — all inside this page, nothing sent away.',
  },
  play: {
    title: 'Play',
    intro:
      'Be the actor: choose a task and a starting situation, write what you would say, and see how the simulated ' +
      'user answers. Open the user’s mind to see why it answered so, undo a turn, or branch to try another line.',
  },
  watch: {
    title: 'Watch',
    intro:
      'Let a policy play the actor on a set of starting situations and compare how the dialogues end. Open any ' +
      'episode to read it turn by turn with the user’s mind revealed.',
  },
  train: {
    title: 'Train',
    intro:
      'Train a CSTPO policy in a background worker and watch its learning curves. Runs are kept in this browser ' +
      'so that training can resume after a reload.',
  },
  evaluate: {
    title: 'Evaluate',
    intro:
      'Compare policies on the same starting situations with 95% intervals. The numbers are the ones the ' +
      'command line gives for the same configuration.',
  },
  principles: {
    title: 'Principles',
    intro:
      'Build a memory of principles by self-play and browse it. A principle says what to do, when, and why, ' +
      'learned from dialogues that went well or badly.',
  },
  data: {
    title: 'Data',
    intro:
      'Load your own dialogue files and seed sets; the library’s loaders check them in your browser. Nothing is ' +
      'uploaded anywhere.',
  },
  models: {
    title: 'Models',
    intro:
      'See what your browser’s graphics hardware offers the library. Language models are optional: every page ' +
      'works in template mode without them.',
  },
};

type PageModule = { default: ComponentType };
const LOADERS: Record<PageId, () => Promise<PageModule>> = {
  home: () => import('./pages/home'),
  play: () => import('./pages/play'),
  watch: () => import('./pages/watch'),
  train: () => import('./pages/train'),
  evaluate: () => import('./pages/evaluate'),
  principles: () => import('./pages/principles'),
  data: () => import('./pages/data'),
  models: () => import('./pages/models'),
};

function PageBody({ page }: { page: PageId }) {
  const [loaded, setLoaded] = useState<{ page: PageId; Component: ComponentType } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    LOADERS[page]().then(
      (m) => live && setLoaded({ page, Component: m.default }),
      (e: unknown) => live && setError(`This page could not be loaded: ${(e as Error).message}`),
    );
    return () => {
      live = false;
    };
  }, [page]);
  if (error) return html`<p role="alert" class="error">${error}</p>`;
  if (!loaded || loaded.page !== page) return html`<p class="muted" aria-live="polite">Loading the page…</p>`;
  const { Component } = loaded;
  return html`<${Component} />`;
}

/** The whole app. */
export function App() {
  const { page } = route.value;
  const info = PAGE_INFO[page];
  useEffect(() => {
    document.title = `${info.title} · proactive-dialogue-lab`;
  }, [info.title]);
  return html`<header>
      <a class="brand" href="#/home">proactive-dialogue-lab</a>
      <nav aria-label="Pages">
        <ul>
          ${PAGES.map(
            (p) =>
              html`<li>
                <a href=${`#/${p}`} aria-current=${p === page ? 'page' : undefined}>${PAGE_INFO[p].title}</a>
              </li>`,
          )}
        </ul>
      </nav>
      <button type="button" class="glossary-button" popovertarget="glossary">Glossary</button>
      <div popover="auto" id="glossary" class="glossary-pop" role="dialog" aria-label="Glossary">
        <h2>Glossary</h2>
        <${Glossary} />
      </div>
    </header>
    <main id="main">
      <h1>${info.title}</h1>
      <p class="intro">${info.intro}</p>
      <${PageBody} page=${page} />
    </main>`;
}
