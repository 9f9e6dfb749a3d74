/** Entry point of the browser app: renders the shell into `#app` (see app/shell.ts). */
import { html } from 'htm/preact';
import { render } from 'preact';
import { App } from './app/shell';

const root = document.getElementById('app') as HTMLElement;
root.replaceChildren();
render(html`<${App} />`, root);
