/**
 * Home: one screen — what the lab is for (the shell's two sentences), a picture of the loop (actor → simulated
 * user → judge → learning → actor), three ready experiments that show a result within seconds of the click, and
 * where the dialogues go. The glossary is behind the header's button.
 */
import { html } from 'htm/preact';
import { Term } from '../glossary';
import { formatHash } from '../router';

/** A first line for Play's ready experiment (the student may send it as it is, or change it). */
const FIRST_LINE =
  'Hi! I volunteer for Save the Children. Could I tell you about a child we are helping this week?';

/** The three ready experiments: each link carries every setting and starts what it names. */
export const EXPERIMENTS = [
  {
    id: 'talk',
    title: 'Talk to a simulated person',
    href: formatHash({ page: 'play', params: { task: 'p4g', mind: '1', draft: FIRST_LINE } }),
    what: 'You are asking for a donation. Press Send and see the reply, and the mind behind it.',
  },
  {
    id: 'compare',
    title: 'Watch two policies and compare',
    href: formatHash({
      page: 'evaluate',
      params: { task: 'p4g', policies: 'random,standard', episodes: '4', run: '1' },
    }),
    what: 'A random policy and a prompting baseline play the same four situations; their mean returns side by side.',
  },
  {
    id: 'train',
    title: 'Train a policy and see it improve',
    href: formatHash({
      page: 'train',
      params: { task: 'esconv', steps: '4', perstep: '1', sft: '5', backend: 'cpu', run: '1' },
    }),
    what: 'A small CSTPO run: a short supervised start, then four learning steps with live curves.',
  },
] as const;

/** The loop, drawn: who talks to whom, who scores, and what learns from the score. */
function Loop() {
  const box = (x: number, label: string, sub: string, fill: string) =>
    html`<g>
      <rect x=${x} y="40" width="150" height="64" rx="10" fill=${fill} stroke="#1d1d1d" stroke-width="1.5" />
      <text x=${x + 75} y="68" text-anchor="middle" font-size="16" font-weight="600">${label}</text>
      <text x=${x + 75} y="88" text-anchor="middle" font-size="12">${sub}</text>
    </g>`;
  const arrow = (x1: number, x2: number, label: string) =>
    html`<g>
      <line
        x1=${x1}
        y1="72"
        x2=${x2 - 4}
        y2="72"
        stroke="#1d1d1d"
        stroke-width="1.5"
        marker-end="url(#arrow)"
      />
      <text x=${(x1 + x2) / 2} y="62" text-anchor="middle" font-size="11">${label}</text>
    </g>`;
  return html`<figure class="loop">
    <svg viewBox="0 0 800 150" role="img" aria-labelledby="loop-title" preserveAspectRatio="xMidYMid meet">
      <title id="loop-title">
        The loop: the actor speaks to the simulated user, who answers; a judge scores the finished dialogue;
        learning turns the score into a better actor.
      </title>
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" fill="#1d1d1d" />
        </marker>
      </defs>
      ${box(5, 'actor', 'you, or a policy', '#dde8f5')} ${arrow(155, 215, 'says')}
      ${box(215, 'simulated user', 'a mind you can open', '#f7e3d3')} ${arrow(365, 425, 'dialogue')}
      ${box(425, 'judge', 'scores it 0 to 1', '#eeeeee')} ${arrow(575, 635, 'score')}
      ${box(635, 'learning', 'a better actor', '#e2f0e2')}
      <path
        d="M710,104 C710,140 80,140 80,108"
        fill="none"
        stroke="#1d1d1d"
        stroke-width="1.5"
        stroke-dasharray="5 4"
        marker-end="url(#arrow)"
      />
      <text x="400" y="146" text-anchor="middle" font-size="11">the next dialogue</text>
    </svg>
  </figure>`;
}

export default function Home() {
  return html`<${Loop} />
    <section aria-labelledby="try">
      <h2 id="try">Try it: three ready experiments</h2>
      <ul class="experiments">
        ${EXPERIMENTS.map(
          (e) =>
            html`<li class="experiment">
              <a href=${e.href} id=${`try-${e.id}`}>${e.title}</a>
              <p>${e.what}</p>
            </li>`,
        )}
      </ul>
      <p class="muted">
        Words such as <${Term} term="policy" />, <${Term} term="return" /> and <${Term} term="utility" /> are
        explained where they appear (click them), and all together behind the Glossary button at the top.
      </p>
    </section>
    <section aria-labelledby="privacy">
      <h2 id="privacy">Where your dialogues go</h2>
      <p>
        Nowhere. In <${Term} term="template mode" /> every role runs on rules inside this page, and the page
        asks its own server for nothing but its files. Every setting of a page is in its address: copy the
        address to share an experiment with a class.
      </p>
    </section>`;
}
