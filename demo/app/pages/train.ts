/** Train page: not built yet (see the notice); it says so rather than showing anything made up. */
import { html } from 'htm/preact';
import { NotBuilt } from '../notbuilt';

export default function Train() {
  return html`<${NotBuilt}>Training CSTPO from this page (trainer worker, live learning curves, pause/resume, stored runs, export/import) is not built yet. Until then, train with <code>npm run train</code> on the command line.</${NotBuilt}>`;
}
