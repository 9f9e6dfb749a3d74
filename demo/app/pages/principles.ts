/** Principles page: not built yet (see the notice); it says so rather than showing anything made up. */
import { html } from 'htm/preact';
import { NotBuilt } from '../notbuilt';

export default function Principles() {
  return html`<${NotBuilt}>Building and browsing a Principles memory from this page is not built yet. Use <code>npm run principles</code>.</${NotBuilt}>`;
}
