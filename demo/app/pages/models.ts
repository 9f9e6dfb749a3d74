/** Models page: not built yet (see the notice); it says so rather than showing anything made up. */
import { html } from 'htm/preact';
import { NotBuilt } from '../notbuilt';

export default function Models() {
  return html`<${NotBuilt}>The WebGPU findings and language-model choice are not built yet. Every page works in template mode without a model.</${NotBuilt}>`;
}
