/**
 * Charts with uPlot, as its own demos use it:
 *
 * - `LinePlot`: one or more series over turns or steps. A fixed `y` range (e.g. valence −1..1) keeps the axis the
 *   same on every chart of that quantity — Line A and its branches compare at a glance.
 * - `CategoryPlot`: one category per x position (a policy, a dose level), drawn as a point with its 95% interval
 *   as whiskers (custom axis `values` naming each category and a `draw` hook for the whiskers and the printed
 *   value), never a line joining unrelated categories.
 *
 * Both fit their container's width (down to a phone's), print their values without hover (each line's last value
 * in its legend entry; the value beside each point of a category plot) and carry an `aria-label` plus a
 * table of the same numbers (under "Numbers", for anyone who prefers to read them).
 */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
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

/** The width a chart gets: its container's, at most `max` (updated when the container resizes). */
function useFitWidth(max: number) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const fit = () => setWidth(Math.max(200, Math.min(max, Math.floor(el.clientWidth))));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [max]);
  return { box, width };
}

/** The last non-null value of a series (null when there is none). */
const lastValue = (values: readonly (number | null)[]) =>
  [...values].reverse().find((v): v is number => v !== null) ?? null;

const fmt = (v: number | null | undefined, digits = 3) =>
  v === null || v === undefined ? '–' : v.toFixed(digits);

/** A uPlot line chart of `series` over `x` (e.g. turn numbers), at most `width` × 200 pixels. */
export function LinePlot(props: {
  title: string;
  x: number[];
  xLabel: string;
  series: Series[];
  width?: number;
  /** A fixed y range (the quantity's known range); default: fitted to the data. */
  y?: [number, number];
}) {
  const { title, x, xLabel, series, width: max = 420, y } = props;
  const { box, width } = useFitWidth(max);
  const yMin = y?.[0];
  const yMax = y?.[1];
  useEffect(() => {
    const el = box.current;
    if (!el || width === 0) return;
    const plot = new uPlot(
      {
        title,
        width,
        height: 200,
        scales: {
          x: { time: false },
          ...(yMin !== undefined && yMax !== undefined
            ? { y: { range: [yMin, yMax] as uPlot.Range.MinMax } }
            : {}),
        },
        axes: [{ label: xLabel, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, { size: 56 }],
        // Values readable without hover: each legend entry carries the series' last value.
        legend: { live: false },
        series: [
          { label: xLabel },
          ...series.map((s) => ({
            label: `${s.label}: ${fmt(lastValue(s.values))}`,
            stroke: s.color,
            width: 2,
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    plot.root.setAttribute('role', 'img');
    plot.root.setAttribute(
      'aria-label',
      `${title}: ${series.map((s) => `${s.label} (last ${fmt(lastValue(s.values))})`).join(', ')} over ${xLabel}`,
    );
    return () => plot.destroy();
  }, [title, x, xLabel, series, width, yMin, yMax]);
  return html`<figure class="plot">
    <div ref=${box} class="plot-box"></div>
    <details class="numbers">
      <summary>Numbers<span class="sr-only">: ${title}</span></summary>
      <table>
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
                ${series.map((s) => html`<td>${fmt(s.values[i])}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
}

/** One category of a {@link CategoryPlot}: its name, value and whiskers (null ends: not estimable). */
export interface Category {
  name: string;
  value: number;
  lo: number | null;
  hi: number | null;
}

/**
 * A point per category with its 95% interval as whiskers and the value printed beside it; the x axis names the
 * categories. `y` fixes the value axis (e.g. 0..1 for a return in [0, 1]); the range widens to show any interval
 * that leaves it.
 */
export function CategoryPlot(props: {
  title: string;
  categories: Category[];
  xLabel: string;
  yLabel: string;
  y?: [number, number];
  width?: number;
  /** What the whiskers show (default: the 95% interval). */
  spread?: string;
}) {
  const { title, categories, xLabel, yLabel, y, width: max = 560, spread = '95% interval' } = props;
  const { box, width } = useFitWidth(max);
  useEffect(() => {
    const el = box.current;
    if (!el || width === 0 || categories.length === 0) return;
    const names = categories.map((c) => c.name);
    const values = categories.map((c) => [c.value, c.lo ?? c.value, c.hi ?? c.value]).flat();
    const lo = Math.min(y?.[0] ?? Infinity, ...values);
    const hi = Math.max(y?.[1] ?? -Infinity, ...values);
    const pad = y ? 0 : (hi - lo || 1) * 0.1;
    const slanted = width / categories.length < 110;
    const color = seriesColor(0);
    const plot = new uPlot(
      {
        title,
        width,
        height: slanted ? 260 : 220,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: [-0.5, categories.length - 0.5] },
          y: { range: [lo - pad, hi + pad] },
        },
        axes: [
          {
            label: xLabel,
            splits: () => names.map((_, i) => i),
            values: (_u, splits) => splits.map((i) => names[i] ?? ''),
            ...(slanted ? { rotate: -30, size: 80 } : {}),
            grid: { show: false },
          },
          { label: yLabel, size: 50 },
        ],
        series: [
          {},
          {
            label: yLabel,
            stroke: color,
            fill: color,
            paths: () => null,
            points: { show: true, size: 9, fill: color },
          },
        ],
        hooks: {
          draw: [
            (u) => {
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = color;
              ctx.fillStyle = '#1d1d1d';
              ctx.lineWidth = 2 * uPlot.pxRatio;
              ctx.font = `${12 * uPlot.pxRatio}px system-ui, sans-serif`;
              ctx.textAlign = 'left';
              ctx.textBaseline = 'middle';
              categories.forEach((c, i) => {
                const cx = u.valToPos(i, 'x', true);
                const cap = 6 * uPlot.pxRatio;
                if (c.lo !== null && c.hi !== null) {
                  const top = u.valToPos(c.hi, 'y', true);
                  const bottom = u.valToPos(c.lo, 'y', true);
                  ctx.beginPath();
                  ctx.moveTo(cx, top);
                  ctx.lineTo(cx, bottom);
                  ctx.moveTo(cx - cap, top);
                  ctx.lineTo(cx + cap, top);
                  ctx.moveTo(cx - cap, bottom);
                  ctx.lineTo(cx + cap, bottom);
                  ctx.stroke();
                }
                ctx.fillText(fmt(c.value, 2), cx + 10 * uPlot.pxRatio, u.valToPos(c.value, 'y', true));
              });
              ctx.restore();
            },
          ],
        },
      },
      [names.map((_, i) => i), categories.map((c) => c.value)],
      el,
    );
    plot.root.setAttribute('role', 'img');
    plot.root.setAttribute(
      'aria-label',
      `${title}: ${categories.map((c) => `${c.name} ${fmt(c.value)} [${fmt(c.lo)}, ${fmt(c.hi)}]`).join('; ')}`,
    );
    return () => plot.destroy();
  }, [title, categories, xLabel, yLabel, width, y?.[0], y?.[1]]);
  return html`<figure class="plot category-plot">
    <div ref=${box} class="plot-box"></div>
    <details class="numbers">
      <summary>Numbers<span class="sr-only">: ${title}</span></summary>
      <table>
        <thead>
          <tr>
            <th scope="col">${xLabel}</th>
            <th scope="col">${yLabel}</th>
            <th scope="col">${spread}</th>
          </tr>
        </thead>
        <tbody>
          ${categories.map(
            (c) =>
              html`<tr>
                <th scope="row" class="category">${c.name}</th>
                <td>${fmt(c.value)}</td>
                <td>[${fmt(c.lo)}, ${fmt(c.hi)}]</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
}
