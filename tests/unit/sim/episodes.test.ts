/**
 * Plausible episodes (issue 9): a sensible adaptive script — reading only the actor's observation — reaches the
 * simulator's own success ending within about 4–10 turns on most bundled seeds of each task; the random policy
 * takes longer and succeeds less (bootstrap intervals from src/stats). Also: distinct-n of the user's replies.
 *
 * Success ending (the simulator's, not the judge's): ESConv — the user ends the talk feeling better with a step;
 * P4G — a commitment to donate that is not withdrawn; CB — a deal below the list price.
 */
import { describe, expect, it } from 'vitest';
import { runJob } from '../../../src/agents/rollout';
import { DialogueEnv, type Observation, type StepResult } from '../../../src/env/env';
import { distinctN } from '../../../src/eval/validation';
import { Rng } from '../../../src/rng';
import { bootstrapMean } from '../../../src/stats/bootstrap';
import type { TaskEvent } from '../../../src/sim/types';
import type { Seed, TaskId } from '../../../src/tasks/seed';
import { defaultSeeds } from '../../../src/tasks/defaults';

const lastUser = (obs: Observation) =>
  [...obs.history].reverse().find((t) => t.speaker === 'user')?.text ?? '';
const vary = (obs: Observation, options: readonly string[]) => options[obs.turn % options.length] as string;

/** A short adaptive script per task: what a sensible person would say next, from the observation alone. */
function adaptive(obs: Observation): string {
  const last = lastUser(obs).toLowerCase();
  if (obs.task === 'esconv') {
    if (obs.turn === 0)
      return 'That sounds really hard, and I am sorry you are going through it. What worries you most?';
    if (/worse|not helpful|push/.test(last))
      return 'I am sorry, I did not mean to push. Take your time, I am here with you.';
    return vary(obs, [
      'It makes sense that you feel this way, and it is not your fault. One small step could help: tomorrow you could write down what worries you most and talk it over with a friend you trust.',
      'You are not alone in this, and it can get better in time. Maybe you could plan one small thing for this week, like calling someone you trust on Saturday.',
      'I hear you, and your feelings are valid. It might help to set aside ten minutes tonight to list one thing you can try, and then reach out to someone close.',
      'I am glad you told me. What if you picked one tiny thing to do on Sunday morning, such as a short walk with your sister?',
      'That must be exhausting, and I understand why. Perhaps a counselor or a doctor could help; you might book a first appointment next week.',
      'Thank you for trusting me with this. Consider writing three things that went well each evening before bed, just for a few days.',
    ]);
  }
  if (obs.task === 'p4g') {
    if (obs.turn === 0) return 'Hi! Have you heard of Save the Children before?';
    if (/use the money|not sure charities/.test(last))
      return 'I understand. Save the Children is audited every year and rated highly for transparency. Would you donate $1 of your task payment?';
    if (/small donation|changes much/.test(last))
      return 'Every dollar provides meals and school supplies for a child, so even a little goes a long way. Would you give $1 from your payment?';
    if (/money is tight/.test(last))
      return 'That is fair. It would only come from your task payment, even $0.50 helps a child. Would you donate just that?';
    if (/push|not helpful|frustrating/.test(last))
      return 'Sorry, I did not mean to pressure you. I only mention it because I saw what a school meal means to a child.';
    return vary(obs, [
      'Save the Children has a long track record and is audited every year; even $1 of your task payment feeds a child. Would you donate $1 today?',
      'Research shows that small gifts add up: each dollar goes a long way for children in need. Could you give $0.50 from your task payment?',
      'According to independent reports, most of each dollar reaches programs for children. Would you consider giving $1 of your bonus?',
      'Your donation would come straight from the task payment, so it costs you nothing extra, and it provides school supplies. Could you spare $0.50?',
      'The charity is rated highly for transparency, and vaccines for one child cost only a few dollars. Would you donate a small part of your payment?',
    ]);
  }
  const list = obs.actorView.listPrice as number;
  const target = obs.actorView.targetPrice as number;
  const mine = [...obs.events].reverse().find((e) => e.type === 'offer' && e.by === 'actor')?.price;
  const theirs = [...obs.events].reverse().find((e) => e.type === 'offer' && e.by === 'user')?.price;
  if (mine === undefined)
    return `Hi, it looks nice. It has some wear though. Would you take $${Math.round(target)}?`;
  if (theirs !== undefined && theirs - mine <= 0.06 * list) return `Deal, $${theirs} works for me.`;
  const next = Math.round(mine + 0.45 * ((theirs ?? list) - mine));
  return vary(obs, [
    `I can pay cash today. How about ${next}?`,
    `I have seen similar ones cheaper online. Would you take $${next}?`,
    `Meet me at ${next} dollars and I will pick it up tonight.`,
  ]);
}

/** The simulator's own success ending of a finished episode, from its end reason and public events. */
function simSuccess(
  task: TaskId,
  endReason: string | null,
  events: readonly TaskEvent[],
  seed: Seed,
): boolean {
  if (task === 'esconv') return endReason === 'user-ended';
  if (task === 'p4g')
    return events.some((e) => e.type === 'commit') && !events.some((e) => e.type === 'withdraw');
  const price = [...events].reverse().find((e) => e.type === 'accept')?.price;
  return endReason === 'deal' && price !== undefined && price < (seed.actorView.listPrice as number);
}

async function runAdaptive(task: TaskId, seeds: readonly Seed[]) {
  const env = new DialogueEnv(task);
  const out: { success: number; turns: number; replies: string[] }[] = [];
  for (const seed of seeds) {
    let { observation } = env.reset({ seed });
    let step: StepResult | null = null;
    const replies: string[] = [];
    do {
      step = await env.step({ strategy: 'script', utterance: adaptive(observation) });
      observation = step.observation;
      replies.push(step.info.sim.userUtterance);
    } while (!step.terminated && !step.truncated);
    out.push({
      success: simSuccess(task, step.info.endReason, step.observation.events, seed) ? 1 : 0,
      turns: observation.turn,
      replies,
    });
  }
  return out;
}

const interval = (values: number[], key: string) =>
  bootstrapMean(values, {
    rng: Rng.fromSeed(7),
    resamples: 1000,
    clusters: values.map((_, i) => `${key}${i}`),
  });

describe.each(['esconv', 'p4g', 'cb'] as TaskId[])('%s episodes', (task) => {
  it('the adaptive script succeeds in about 4–10 turns on most seeds; random is slower and succeeds less', async () => {
    const seeds = defaultSeeds(task);
    const script = await runAdaptive(task, seeds);
    const random = await runJob({ task, policy: 'random', seeds, episodes: seeds.length, baseSeed: 3 });
    const bySeed = new Map(seeds.map((s) => [s.id, s]));
    const randomSuccess = random.map((r) =>
      simSuccess(
        task,
        r.endReason,
        r.turns.flatMap((t) => t.events),
        bySeed.get(r.seedId) as Seed,
      )
        ? 1
        : 0,
    );
    const scriptRate = interval(
      script.map((s) => s.success),
      's',
    );
    const randomRate = interval(randomSuccess, 'r');
    const successTurns = script.filter((s) => s.success).map((s) => s.turns);
    const medianTurns =
      [...successTurns].sort((a, b) => a - b)[Math.floor(successTurns.length / 2)] ?? Infinity;
    const randomTurns = random.reduce((s, r) => s + r.turns.length, 0) / random.length;
    const scriptTurns = script.reduce((s, r) => s + r.turns, 0) / script.length;
    console.log(
      `${task}: script success ${scriptRate.mean.toFixed(2)} [${scriptRate.lo.toFixed(2)}, ${scriptRate.hi.toFixed(2)}], ` +
        `median turns to success ${medianTurns}, mean turns ${scriptTurns.toFixed(1)}; random success ` +
        `${randomRate.mean.toFixed(2)} [${randomRate.lo.toFixed(2)}, ${randomRate.hi.toFixed(2)}], mean turns ${randomTurns.toFixed(1)}`,
    );
    expect(scriptRate.mean).toBeGreaterThan(0.5);
    // Lower bound 3, not the 4, and on purpose (`npx tsx experiments/cb-haggling.ts`): on CB this script
    // opens with its offer, and real buyers (CraigslistBargain dev split, 82 deals) take a median of 2 buyer turns
    // (IQR 1–2) from their first priced offer to the agreement, the simulator 3; their 4 buyer turns to the
    // agreement come from greetings and questions before the first offer, which this script does not make.
    // Lengthening the simulator's haggling to reach 4 would move it away from the human data.
    expect(medianTurns).toBeGreaterThanOrEqual(3);
    expect(medianTurns).toBeLessThanOrEqual(10);
    expect(scriptRate.lo).toBeGreaterThan(randomRate.mean);
    expect(randomTurns).toBeGreaterThan(scriptTurns);
  });
});

describe('user replies are varied (distinct-n over random-policy episodes on the bundled seeds)', () => {
  // Floors: the template responder composes replies from phrase banks, so distinct-n is far below human text
  // (~0.3–0.5 distinct-1 over a corpus of this size); the floors sit a little under what the current banks give
  // and fail if replies collapse onto a few fixed lines (distinct-2 of a single repeated line tends to 0).
  const floors: Record<TaskId, [number, number]> = {
    esconv: [0.02, 0.05],
    p4g: [0.02, 0.04],
    cb: [0.02, 0.04],
  };
  it.each(['esconv', 'p4g', 'cb'] as TaskId[])('%s', async (task) => {
    const records = await runJob({
      task,
      policy: 'random',
      seeds: defaultSeeds(task),
      episodes: 15,
      baseSeed: 5,
    });
    const replies = records.flatMap((r) => r.turns.map((t) => t.userUtterance));
    const d1 = distinctN(replies, 1);
    const d2 = distinctN(replies, 2);
    console.log(
      `${task}: distinct-1 ${d1.toFixed(3)}, distinct-2 ${d2.toFixed(3)} over ${replies.length} replies`,
    );
    expect(d1).toBeGreaterThan(floors[task][0]);
    expect(d2).toBeGreaterThan(floors[task][1]);
    // No reply repeats the user's previous reply word for word.
    for (const r of records)
      r.turns.forEach((t, i) => {
        if (i > 0) expect(t.userUtterance, `${r.seedId} turn ${i}`).not.toBe(r.turns[i - 1]?.userUtterance);
      });
  });
});
