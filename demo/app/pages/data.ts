/** Data page: not built yet (see the notice); it says so rather than showing anything made up. */
import { html } from 'htm/preact';
import { NotBuilt } from '../notbuilt';

export default function Data() {
  return html`<${NotBuilt}>Loading your own files from this page is not built yet. Use the library’s loaders from the command line (<code>npm run simulate -- --seeds FILE</code>).</${NotBuilt}>`;
}
