/** Evaluate page: not built yet (see the notice); it says so rather than showing anything made up. */
import { html } from 'htm/preact';
import { NotBuilt } from '../notbuilt';

export default function Evaluate() {
  return html`<${NotBuilt}>Comparing policies with intervals from this page is not built yet. Use <code>npm run evaluate</code>, or the Watch page for one policy at a time.</${NotBuilt}>`;
}
