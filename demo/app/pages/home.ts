/** Home page: what the lab is, the first lesson (play → watch → train), and the glossary. */
import { html } from 'htm/preact';
import { Glossary, Term } from '../glossary';

export default function Home() {
  return html`<section aria-labelledby="lesson">
      <h2 id="lesson">First lesson</h2>
      <ol class="lesson">
        <li>
          <a href="#/play?task=p4g">Play</a>: you are the persuader asking for a donation to a children’s
          charity. Write three turns, then press “Reveal the user’s mind” to see the <${Term} term="mode" />,
          <${Term} term="route" /> and <${Term} term="judgment" /> behind each reply. Undo your last turn, or
          branch from an earlier one and compare the two continuations side by side.
        </li>
        <li>
          <a href="#/watch?task=p4g&policy=random&episodes=6">Watch</a>: let a <${Term} term="policy" /> play
          the same situations and compare the <${Term} term="utility" />, <${Term} term="return" /> and
          <${Term} term="success" /> of its <${Term} term="episode" label="episodes" />.
        </li>
        <li>
          <a href="#/train">Train</a>: teach a policy by reinforcement learning and see whether it beats the
          ones you watched.
        </li>
      </ol>
    </section>
    <section aria-labelledby="privacy">
      <h2 id="privacy">Where your dialogues go</h2>
      <p>
        Nowhere. In <${Term} term="template mode" /> every role runs on rules inside this page, and the page
        asks its own server for nothing but its files. A teacher can share an experiment as a link: every
        setting of a page is in its address.
      </p>
    </section>
    <section aria-labelledby="terms">
      <h2 id="terms">Words used in this lab</h2>
      <${Glossary} />
    </section>`;
}
