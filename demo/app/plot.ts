/**
 * Line plots with uPlot: `LinePlot` draws one or more series over turns (or steps) and redraws when its data
 * change. The canvas carries an `aria-label` naming the plot, and a visually hidden table gives the same numbers
 * to screen readers.
 */
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One series: a label, values per x (null for a gap) and a CSS colour. */
export interface Series {
  label: string;
  values: (number | null)[];
  color: string;
}

const COLORS = ['#1a4f8b', '#b3541e', '#2e7d32', '#7b1fa2', '#616161'];

/** A colour for the `i`-th series of a plot. */
export const seriesColor = (i: number) => COLORS[i % COLORS.length] as string;

/** A uPlot line chart of `series` over `x` (e.g. turn numbers), `width` × 220 pixels. */
export function LinePlot(props: {
  title: string;
  x: number[];
  xLabel: string;
  series: Series[];
  width?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { title, x, xLabel, series, width = 420 } = props;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        title,
        width,
        height: 220,
        scales: { x: { time: false } },
        axes: [{ label: xLabel, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, {}],
        series: [{ label: xLabel }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    plot.root.setAttribute('role', 'img');
    plot.root.setAttribute('aria-label', `${title}: ${series.map((s) => s.label).join(', ')} over ${xLabel}`);
    return () => plot.destroy();
  }, [title, x, xLabel, series, width]);
  return html`<figure class="plot">
    <div ref=${box}></div>
    <table class="sr-only">
      <caption>
        ${title}
      </caption>
      <thead>
        <tr>
          <th scope="col">${xLabel}</th>
          ${series.map((s) => html`<th scope="col">${s.label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${x.map(
          (v, i) =>
            html`<tr>
              <th scope="row">${v}</th>
              ${series.map((s) => html`<td>${s.values[i]?.toFixed(3) ?? '–'}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </figure>`;
}
