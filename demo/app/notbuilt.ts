/** The notice a page shows for what is not built yet: said plainly, never replaced by made-up results. */
import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';

export function NotBuilt({ children }: { children: ComponentChildren }) {
  return html`<div class="notbuilt" role="note"><strong>Not built yet.</strong> ${children}</div>`;
}
