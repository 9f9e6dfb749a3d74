/**
 * Plain-words explanations of every term the app shows, one click (or hover) away: `Term` renders the word as a
 * button that opens a small popover with the explanation (the browser's popover API: keyboard- and
 * screen-reader-usable, closed with Escape or a click elsewhere), and the Glossary lists them all.
 */
import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { PRINCIPLES_MODELS_TERMS } from './principles/terms';

/** Term → explanation, for a student who has never read the papers. */
export const GLOSSARY: Readonly<Record<string, string>> = {
  'strategy label':
    'The name of what a turn tries to do — for example "Logical appeal" or "Affirmation". The actor may label ' +
    'its utterance; the simulated user never sees the label, only the words.',
  actor: 'The side you play (or a policy plays): the supporter, the persuader or the buyer.',
  user: 'The simulated person the actor talks to. Its mind is hidden from the actor; the app can reveal it for learning.',
  mode:
    'How the simulated user reads a turn: Influence (it tries to change my mind), Elicit (it asks me something) or ' +
    'Social (small talk). Only Influence turns can change beliefs, desires and intentions.',
  route:
    'For an Influence turn, how carefully the user thinks about it: the central route weighs the arguments, the ' +
    'peripheral route goes by surface cues such as warmth or confidence.',
  judgment:
    'What the user concludes about an Influence turn: accept (it fits what I believe), non-commit (not sure) or ' +
    'reject (it goes against what I believe).',
  BDI: 'Beliefs, desires and intentions: the records of the simulated mind, each with a strength from 0 to 4.',
  'proposed change':
    'After an Influence turn the simulator proposes small changes to the BDI records; rules accept them, clip them ' +
    'or reject them (then the mind stays exactly as it was), and the reason is shown.',
  valence: 'How pleasant the user feels, from −1 (very unpleasant) to +1 (very pleasant).',
  arousal: 'How stirred up the user feels, from 0 (calm) to 1 (highly activated).',
  appraisal:
    "The user's reading of the situation: goal congruence (is this going my way?), coping potential (can I deal " +
    'with it?) and future expectancy (will it get better?), each from −1 to +1.',
  utility: "The judge's score of a finished dialogue, from 0 (goal missed) to 1 (goal fully reached).",
  return: 'The sum of the rewards over an episode. With the default protocol it equals the final utility.',
  success:
    "Whether the judge counts the dialogue as a success (for example a donation or a deal near the buyer's target).",
  episode: 'One whole dialogue, from the seed situation to its end.',
  seed: 'A starting situation: who the user is, what they believe and feel, and the first turns of the dialogue.',
  policy: 'A rule that plays the actor: it picks a strategy and an utterance each turn.',
  'outcome variable':
    "The task's measure of progress: the user's intention to take a step (emotional support), the intention to " +
    "donate (persuasion) or the seller's willingness to concede and price (bargaining).",
  'template mode':
    'Every simulated role runs on hand-written rules in your browser: no language model, no download, nothing sent.',
  'seed set':
    'Seeds you loaded from your own files on the Data page, kept in this browser. Its id comes from its content, so ' +
    'the same file gives the same id on every computer.',
  trajectory: 'The record of one episode: every turn said, the strategy labels, the rewards and the outcome.',
  'held-out seeds':
    'Seeds kept out of training (a quarter of them, chosen as the command line chooses), used only to judge the ' +
    'trained policy, so it is judged on situations it has not practised on.',
  algorithm:
    'How the policy learns. CSTPO learns which strategy to use and how to word it, with a critic and branches ' +
    'tried from the same turn; GRPO-EmoLLM compares whole dialogues of a group started from the same situation.',
  group:
    'GRPO plays several dialogues from the same situation and weights each by how much better it did than the group.',
  backend:
    'Where the network arithmetic runs: WebGPU (the graphics card), WebGL, WebAssembly or plain JavaScript on the ' +
    'CPU. The fastest one that works is chosen; the page says why a faster one was skipped.',
  'strategy entropy':
    'How spread out the policy’s choice of strategy is, in nats: high when it still tries everything, low when it ' +
    'has settled on a few strategies.',
  'branch continuation':
    'CSTPO replays a dialogue from a checkpoint turn with another strategy or wording and plays it to the end; ' +
    'each such branch gives one more return to learn from.',
  'trace rate': 'The share of turns on which the EmoLLM actor wrote an appraisal reasoning (ARG) trace.',
  KL: 'How far the trained heads have moved from where they started (Kullback–Leibler divergence); GRPO keeps it small.',
  interval:
    'A 95% interval: the range that holds the true average with 95% confidence, given the episodes run.',
  ...PRINCIPLES_MODELS_TERMS,
  'dose–response':
    'A check of the simulator: the same starting point gets inputs from weak to strong (say, a dismissive line up ' +
    'to real empathy with a small step), and the simulated user’s outcome should rise with the strength.',
  'monotone share':
    'Of the seeds tried in a dose–response check, the share whose outcome never fell from one level to the next ' +
    'and ended higher than it started. 100% means the simulator responded in order on every seed.',
  'ARG trace':
    'EmoLLM’s Appraisal Reasoning Graph, written by the actor before it speaks: the facts it sees, what the user ' +
    'seems to need, how the user appraises things, the emotion that follows, and the strategy chosen.',
  'reverse-perspective prediction':
    'The actor imagines being the user hearing its reply and predicts their needs, appraisal and emotion a few ' +
    'turns ahead. It is the actor’s own guess from the dialogue, not the simulator’s hidden state.',
  'stored policy':
    'A policy that needs something kept in this browser: a Principles memory (principles:name) or a trained CSTPO ' +
    'run (cstpo:run id). Build or train one on the Principles or Train page, then find it here.',
};

/**
 * A term with its explanation one click or hover away. `term` must be a key of {@link GLOSSARY}; `label` is the
 * text shown (default: the term); the label "?" makes a small explain button. Its accessible name is "Explain:
 * term", with `where` added in brackets (e.g. a field's label) where the same term is explained twice on a page,
 * so that every explain button of a page has its own name.
 */
export function Term({
  term,
  label,
  where,
}: {
  term: keyof typeof GLOSSARY & string;
  label?: string;
  where?: string;
}) {
  const id = `g${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const text = GLOSSARY[term] ?? '';
  const shown = label ?? term;
  const name = shown === '?' ? term : shown;
  return html`<span class="term-wrap"
    ><button
      type="button"
      class=${shown === '?' ? 'term explain' : 'term'}
      popovertarget=${id}
      title=${text}
      aria-label=${`Explain: ${name}${where ? ` (${where})` : ''}`}
    >
      ${shown}</button
    ><span popover="auto" id=${id} class="term-pop" role="note"><strong>${term}</strong>: ${text}</span></span
  >`;
}

/** The whole glossary, as a definition list. */
export function Glossary() {
  return html`<dl class="glossary">
    ${Object.entries(GLOSSARY).map(
      ([k, v]) =>
        html`<div>
          <dt>${k}</dt>
          <dd>${v}</dd>
        </div>`,
    )}
  </dl>`;
}

/**
 * A form field: its label (bound to the control by `id`), an optional explain button beside it (outside the label,
 * so the control's name stays the label text) and the control itself.
 */
export function Field(props: {
  id: string;
  label: string;
  term?: string;
  /** Added to the explain button's name where the term is explained elsewhere on the page too. */
  where?: string;
  children: ComponentChildren;
}) {
  return html`<div class="field">
    <span class="field-head"
      ><label for=${props.id}>${props.label}</label
      >${props.term && html` <${Term} term=${props.term} label="?" where=${props.where} />`}</span
    >
    ${props.children}
  </div>`;
}
