/**
 * Live learning curves of the Train page, one uPlot chart per group of figures: CSTPO's mean return and success,
 * losses, strategy entropy and branch counts; GRPO's group reward and return, success and ARG trace rate, loss
 * and KL to the reference heads.
 */
import { html } from 'htm/preact';
import type { GrpoStepRecord, TrainConfig, StepRecord } from '../../../src/entries/training';
import { Term } from '../glossary';
import { LinePlot, seriesColor } from '../plot';

const curve = (label: string, values: (number | null)[], i: number) => ({
  label,
  values,
  color: seriesColor(i),
});

/**
 * Branch continuations sampled in a CSTPO step: the step's sampled returns less its main paths (one per seed with
 * branching; with the "no branching" ablation every return is a main path, so 0).
 */
export function branchCount(r: StepRecord, config: Pick<TrainConfig, 'seedsPerStep' | 'ablations'>): number {
  return config.ablations.branching ? r.returns - config.seedsPerStep : 0;
}

/** CSTPO's curves over steps. */
export function CstpoCurves(props: {
  history: StepRecord[];
  config: Pick<TrainConfig, 'seedsPerStep' | 'ablations'>;
}) {
  const h = props.history;
  const x = h.map((r) => r.step);
  return html`<div class="plots">
    <${LinePlot}
      title="Mean return and success rate"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'mean return',
          h.map((r) => r.meanReturn),
          0,
        ),
        curve(
          'success rate',
          h.map((r) => r.successRate),
          1,
        ),
      ]}
    />
    <${LinePlot}
      title="Losses"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'actor loss',
          h.map((r) => r.losses.actorLoss),
          2,
        ),
        curve(
          'critic loss',
          h.map((r) => r.losses.criticLoss),
          3,
        ),
      ]}
    />
    <${LinePlot}
      title="Strategy entropy (nats)"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'strategy entropy',
          h.map((r) => r.losses.strategyEntropy),
          0,
        ),
      ]}
    />
    <${LinePlot}
      title="Branch counts per step"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'branch continuations',
          h.map((r) => branchCount(r, props.config)),
          1,
        ),
        curve(
          'main-path decisions',
          h.map((r) => r.decisions),
          2,
        ),
      ]}
    />
    <p class="muted">
      Words on these charts, explained:${' '}<${Term} term="strategy entropy" />,${' '}
      <${Term} term="branch continuation" label="branch continuations" />.
    </p>
  </div>`;
}

/** GRPO's curves over steps. */
export function GrpoCurves(props: { history: GrpoStepRecord[] }) {
  const h = props.history;
  const x = h.map((r) => r.step);
  return html`<div class="plots">
    <${LinePlot}
      title="Group reward and return"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'mean reward R(τ)',
          h.map((r) => r.meanReward),
          0,
        ),
        curve(
          'mean return',
          h.map((r) => r.meanReturn),
          1,
        ),
      ]}
    />
    <${LinePlot}
      title="Success and ARG trace rate"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'success rate',
          h.map((r) => r.successRate),
          2,
        ),
        curve(
          'trace rate',
          h.map((r) => r.traceRate),
          3,
        ),
      ]}
    />
    <${LinePlot}
      title="Loss and KL to the reference heads"
      x=${x}
      xLabel="step"
      series=${[
        curve(
          'loss',
          h.map((r) => r.loss),
          0,
        ),
        curve(
          'KL',
          h.map((r) => r.kl),
          1,
        ),
        curve(
          'clip fraction',
          h.map((r) => r.clipFraction),
          4,
        ),
      ]}
    />
    <p class="muted">
      Words on these charts, explained:${' '}<${Term} term="group" label="groups" />,${' '}
      <${Term} term="trace rate" />,${' '}<${Term} term="KL" />.
    </p>
  </div>`;
}
