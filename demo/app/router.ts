/**
 * Hash routing and class mode: the page and its whole configuration live in the URL's fragment, e.g.
 * `#/watch?task=p4g&policy=random&episodes=6`, so the built site works from any static host and sub-path (the
 * fragment never reaches the server) and a teacher can hand every student the same experiment as one link.
 */
import { signal } from '@preact/signals';

/** The app's pages, in navigation order. */
export const PAGES = ['home', 'play', 'watch', 'train', 'evaluate', 'principles', 'data', 'models'] as const;
export type PageId = (typeof PAGES)[number];

/** The current route: a page and its configuration (the fragment's query). */
export interface Route {
  page: PageId;
  params: Record<string, string>;
}

/** Parses `#/page?key=value&…`; an unknown or missing page is the home page. */
export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const page = (PAGES as readonly string[]).includes(path) ? (path as PageId) : 'home';
  return { page, params: Object.fromEntries(new URLSearchParams(query)) };
}

/** The fragment for a route (keys sorted, so equal configurations give equal links). */
export function formatHash(route: Route): string {
  const entries = Object.entries(route.params)
    .filter(([, v]) => v !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(entries).toString();
  return `#/${route.page}${query ? `?${query}` : ''}`;
}

/** The current route, kept in step with `location.hash`. */
export const route = signal<Route>(parseHash(location.hash));
addEventListener('hashchange', () => {
  route.value = parseHash(location.hash);
});

/**
 * Writes configuration values of the current page into the URL (replacing the history entry, so that editing a
 * form does not fill the back button).
 */
export function setParams(values: Record<string, string | number>): void {
  const current = route.value;
  const params = { ...current.params };
  for (const [k, v] of Object.entries(values)) params[k] = String(v);
  const next = { page: current.page, params };
  history.replaceState(null, '', formatHash(next));
  route.value = next;
}

/** A configuration value of the current page, or `fallback`. */
export function param(key: string, fallback: string): string {
  return route.value.params[key] ?? fallback;
}

/** The URL parameter that starts a page's run on arrival (the home page's ready experiments). */
export const AUTORUN_PARAM = 'run';

/**
 * Whether the link asked to start at once (`run=1`); the parameter is removed from the address first, so a reload
 * or a copied link does not start the same run again.
 */
export function takeAutorun(): boolean {
  if (route.value.params[AUTORUN_PARAM] !== '1') return false;
  setParams({ [AUTORUN_PARAM]: '' });
  return true;
}
