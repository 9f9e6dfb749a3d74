/**
 * A choice of several items as checkbox chips in a fieldset (no Ctrl/Shift-click): each chip is a native
 * checkbox with its label, so it works from the keyboard and with a screen reader, and wraps on a narrow screen.
 */
import { html } from 'htm/preact';
import { Term } from './glossary';

export function Checks(props: {
  legend: string;
  /** A glossary term explained beside the legend. */
  term?: string;
  options: { value: string; label: string; title?: string }[];
  chosen: ReadonlySet<string>;
  /** The chosen values, in the options' order. */
  onChange: (values: string[]) => void;
}) {
  const { options, chosen } = props;
  const toggle = (value: string, on: boolean) =>
    props.onChange(options.map((o) => o.value).filter((v) => (v === value ? on : chosen.has(v))));
  return html`<fieldset class="checks">
    <legend>${props.legend}${props.term && html` <${Term} term=${props.term} label="?" />`}</legend>
    ${options.map(
      (o) =>
        html`<label class="chip" title=${o.title}
          ><input
            type="checkbox"
            value=${o.value}
            checked=${chosen.has(o.value)}
            onChange=${(e: Event) => toggle(o.value, (e.target as HTMLInputElement).checked)}
          />
          ${o.label}</label
        >`,
    )}
  </fieldset>`;
}
