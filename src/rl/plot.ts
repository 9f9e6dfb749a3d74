/**
 * Learning curves of a run: the per-step series as JSON-ready data, and a static SVG chart of them (mean
 * return with its moving average; critic and actor losses), written from the data with no plotting library.
 */
import type { StepRecord } from './trainer';

/** Per-step series of a run (index i is step i + 1). */
export interface LearningCurves {
  step: number[];
  meanReturn: number[];
  /** Trailing moving average of `meanReturn` over `window` steps. */
  meanReturnAvg: number[];
  window: number;
  criticV: number[];
  criticU: number[];
  criticBranch: number[];
  /** Actor surrogate loss, null during critic warm-up. */
  actorLoss: (number | null)[];
  strategyEntropy: number[];
}

/** The learning curves of `history` with a trailing moving average over `window` steps (default 10). */
export function learningCurves(history: readonly StepRecord[], window = 10): LearningCurves {
  const meanReturn = history.map((r) => r.meanReturn);
  return {
    step: history.map((r) => r.step),
    meanReturn,
    meanReturnAvg: meanReturn.map((_, i) => {
      const part = meanReturn.slice(Math.max(0, i + 1 - window), i + 1);
      return part.reduce((a, b) => a + b, 0) / part.length;
    }),
    window,
    criticV: history.map((r) => r.losses.criticV),
    criticU: history.map((r) => r.losses.criticU),
    criticBranch: history.map((r) => r.losses.criticBranch),
    actorLoss: history.map((r) => r.losses.actorLoss),
    strategyEntropy: history.map((r) => r.losses.strategyEntropy),
  };
}

interface Series {
  label: string;
  color: string;
  values: (number | null)[];
  dashed?: boolean;
}

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Round to 4 significant digits for axis labels. */
const tick = (v: number): string => String(Number(v.toPrecision(3)));

/** One panel: axes, min/max labels, a polyline per series (gaps at nulls) and a legend row below. */
function panel(
  x: number[],
  series: Series[],
  title: string,
  box: { top: number; width: number; height: number },
): string {
  const left = 60;
  const right = box.width - 20;
  const top = box.top + 24;
  const bottom = box.top + box.height - 44;
  const ys = series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  let lo = ys.length ? Math.min(...ys) : 0;
  let hi = ys.length ? Math.max(...ys) : 1;
  if (hi - lo < 1e-9) [lo, hi] = [lo - 0.5, hi + 0.5];
  const x0 = x[0] ?? 0;
  const x1 = x.at(-1) ?? 1;
  const px = (v: number) => left + ((v - x0) / Math.max(1e-9, x1 - x0)) * (right - left);
  const py = (v: number) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
  const parts = [
    `<text x="${left}" y="${box.top + 16}" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#444"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#444"/>`,
    `<text x="${left - 6}" y="${top + 4}" font-size="10" text-anchor="end">${tick(hi)}</text>`,
    `<text x="${left - 6}" y="${bottom}" font-size="10" text-anchor="end">${tick(lo)}</text>`,
    `<text x="${left}" y="${bottom + 14}" font-size="10">${x0}</text>`,
    `<text x="${right}" y="${bottom + 14}" font-size="10" text-anchor="end">step ${x1}</text>`,
  ];
  series.forEach((s, k) => {
    let run: string[] = [];
    const flush = () => {
      if (run.length > 1) {
        parts.push(
          `<polyline fill="none" stroke="${s.color}" stroke-width="1.5"${s.dashed ? ' stroke-dasharray="4 3"' : ''} points="${run.join(' ')}"/>`,
        );
      }
      run = [];
    };
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) flush();
      else run.push(`${px(x[i] as number).toFixed(1)},${py(v).toFixed(1)}`);
    });
    flush();
    const lx = left + 170 * k;
    const ly = box.top + box.height - 12;
    parts.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`,
      `<text x="${lx + 24}" y="${ly}" font-size="11">${escapeXml(s.label)}</text>`,
    );
  });
  return parts.join('\n');
}

/** An SVG image (two panels, 720 × 520) of the learning curves, titled `title`. */
export function learningCurveSvg(curves: LearningCurves, title: string): string {
  const width = 720;
  const height = 260;
  const returns = panel(
    curves.step,
    [
      { label: 'mean return', color: '#9ab', values: curves.meanReturn },
      { label: `moving avg (${curves.window})`, color: '#c33', values: curves.meanReturnAvg },
    ],
    `${title}: mean terminal return of main trajectories`,
    { top: 0, width, height },
  );
  const losses = panel(
    curves.step,
    [
      { label: 'critic V (main)', color: '#27a', values: curves.criticV },
      { label: 'critic U (main)', color: '#2a7', values: curves.criticU },
      { label: 'critic U (branch)', color: '#a72', values: curves.criticBranch },
      { label: 'actor PPO loss', color: '#777', values: curves.actorLoss, dashed: true },
    ],
    'losses',
    { top: height, width, height },
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${2 * height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    returns,
    losses,
    '</svg>',
    '',
  ].join('\n');
}
