/**
 * Play's "think it through" panel: before sending, the person asks EmoLLM's ARG actor for its Appraisal Reasoning
 * Graph at this point of the dialogue and for its reverse-perspective prediction of the user after the words
 * being written (play worker `appraise`). Everything is said in plain words; the prediction is the actor's own
 * model of the user, read from the dialogue only — the simulator's hidden state is never consulted.
 */
import { html } from 'htm/preact';
import type { PredictedUserState } from '../../../src/entries/policies';
import type { Appraisal } from '../../workers/play.worker';
import { Term } from '../glossary';

/** "yes (+0.45)", "no (−0.30)", "unsure (+0.10)" for an appraisal dimension in [-1, 1]. */
export function appraisalWords(v: number): string {
  const word = v >= 0.25 ? 'yes' : v <= -0.25 ? 'no' : 'unsure';
  return `${word} (${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)})`;
}

/** "interest, 4 of 5 (positive)" for an emotional state. */
function feeling(s: PredictedUserState['emotional_state']): string {
  const tone = s.score <= 2 ? 'negative' : s.score >= 4 ? 'positive' : 'neutral';
  return `${s.emotion}, ${s.score} of 5 (${tone})`;
}

function Dimensions({ a }: { a: PredictedUserState['appraisal'] }) {
  return html`<ul class="dims">
    <li>Is this going their way? ${appraisalWords(a.goal_congruence)}</li>
    <li>Do they feel able to deal with it? ${appraisalWords(a.coping_potential)}</li>
    <li>Do they expect it to get better? ${appraisalWords(a.future_expectancy)}</li>
  </ul>`;
}

/** The panel for one appraisal; `onUse` puts the ARG actor's label and wording into the composer. */
export function ArgPanel(props: {
  appraisal: Appraisal;
  draftUsed: boolean;
  onUse: (strategy: string, text: string) => void;
}) {
  const { trace, path, suggestion, reply, value } = props.appraisal;
  return html`<section class="arg" aria-labelledby="arg-title">
    <h3 id="arg-title">The actor thinks it through (<${Term} term="ARG trace" />)</h3>
    <p class="muted">
      This is the actor’s own reasoning from what has been said so far. It does not see the simulated user’s
      mind.
    </p>
    <dl>
      <dt>What it notices</dt>
      <dd>
        <ul>
          ${trace.contextual_facts.map((f) => html`<li>${f}</li>`)}
        </ul>
      </dd>
      <dt>What the user seems to need</dt>
      <dd>
        <ul>
          ${trace.inferred_needs_and_goals.map((n) => html`<li>${n}</li>`)}
        </ul>
      </dd>
      <dt>How the user seems to see things (<${Term} term="appraisal" />)</dt>
      <dd>
        ${trace.appraisal.summary}
        <${Dimensions} a=${trace.appraisal} />
      </dd>
      <dt>The feeling it reads</dt>
      <dd class="arg-emotion">${feeling(trace.emotional_state)}</dd>
      <dt>What it would do</dt>
      <dd class="arg-strategy">
        <strong>${trace.response_strategy.label}</strong>: ${trace.response_strategy.plan}<br />
        It would say: “${suggestion}”${' '}
        <button type="button" onClick=${() => props.onUse(trace.response_strategy.label, suggestion)}>
          Use this label and wording
        </button>
      </dd>
    </dl>
    <h4>
      What it predicts the user will feel
      after${' '}${props.draftUsed ? 'your words' : 'its own wording (write yours to see them predicted)'}
      (<${Term} term="reverse-perspective prediction" />)
    </h4>
    <p class="muted">For: “${reply}”</p>
    <ol class="arg-prediction">
      ${path.map(
        (s, i) =>
          html`<li>
            ${i === 0 ? 'Right after it' : `${i + 1} turns on, if things go on so`}:
            feels${' '}<strong>${feeling(s.emotional_state)}</strong>; needs: ${s.needs.join('; ')}.
            <${Dimensions} a=${s.appraisal} />
          </li>`,
      )}
    </ol>
    <p>
      Predicted value of where this leads: ${(value * 100).toFixed(0)} out of 100 (higher: the user is
      predicted to feel and see things better).
    </p>
  </section>`;
}
