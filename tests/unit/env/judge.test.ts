/**
 * Judges (docs/architecture.md "Tasks, judges and rewards"): the template judge's terminal utilities and
 * per-turn answers on small, hand-scored transcripts, the task utilities' edge cases, and the repetition of
 * judgments (mean / majority).
 */
import { describe, expect, it } from 'vitest';

import {
  TemplateJudge,
  commitment,
  dealPrice,
  emotionScore,
  mood,
  planScore,
  repeatedJudge,
  sentiment,
  type Judge,
  type JudgeInput,
  type TerminalJudgment,
  type TurnJudgment,
} from '../../../src/env';
import type { TaskEvent } from '../../../src/sim';
import { cbUtility, esconvUtility, p4gUtility, type ActorView, type TaskId } from '../../../src/tasks';

const judge = new TemplateJudge();

function input(
  task: TaskId,
  users: string[],
  events: TaskEvent[] = [],
  view: Partial<ActorView> = {},
): JudgeInput {
  return {
    task,
    transcript: users.flatMap((text) => [
      { speaker: 'actor' as const, text: 'actor turn' },
      { speaker: 'user' as const, text },
    ]),
    events,
    actorView: { role: 'r', goal: 'g', ...view },
  };
}

describe('ESConv template judge', () => {
  const better = [
    'I feel so down and stuck.', // AFINN: stuck −2 → mood −0.5
    'Everything is heavy.', // 0
    'Thanks, that helped. I feel calmer.', // thanks 2, helped 2, calmer 2 = 6 → mood 1 (clipped)
    'I am going to call my sister tomorrow.', // 0; a firm plan with a time
  ];

  it('scores the sentiment of the hand-checked turns with AFINN, clause by clause', () => {
    expect(better.map(sentiment)).toEqual([-2, 0, 6, 0]);
    expect(better.map(mood)).toEqual([-0.5, 0, 1, 0]);
  });

  it('reads negation and whole words: "Not good." is negative, "Goodbye." is not positive', () => {
    expect(sentiment('Not good.')).toBeLessThan(0);
    expect(sentiment('Goodbye.')).toBe(0);
    expect(sentiment('That is not ideal for me.')).toBeLessThanOrEqual(0);
  });

  it('E = 2 + 2 (mean mood of the last two − of the first two); A from the last three turns', async () => {
    // E = 2 + 2 · (0.5 − (−0.25)) = 3.5; A = 3 (firm plan) + 1 (time) = 4; utility 7.5 / 8.
    const j = await judge.terminal(input('esconv', better));
    expect(j.scores).toEqual({ E: 3.5, A: 4 });
    expect(j.utility).toBe(0.9375);
    expect(j.success).toBe(true);
  });

  it('clamps E to [0, 4] and gives a tentative plan 1.5 (+0.5 with a time)', async () => {
    const worse = [
      'I am okay I guess.',
      'Things are fine.',
      'Now I feel worse, angry and alone.',
      "I still can't sleep.",
    ];
    // moods 0, 0.5, −1, 0: E = 2 + 2 · (−0.5 − 0.25) = 0.5; no plan.
    expect(await judge.terminal(input('esconv', worse))).toEqual({
      utility: 0.0625,
      success: false,
      scores: { E: 0.5, A: 0 },
    });
    const tentative = [...worse.slice(0, 3), 'Maybe I could try going for a walk this weekend.'];
    expect(planScore(tentative)).toBe(2);
    expect(planScore(['Maybe I could try going for a walk.'])).toBe(1.5);
    const great = [
      'I feel sad and hopeless and alone.',
      'I am stressed and anxious.',
      'Thanks, I feel better, calmer, glad and hopeful.',
      'Good, happy, thank you.',
    ];
    expect(emotionScore(great)).toBe(4);
  });

  it('does not read a refusal as a plan', () => {
    expect(planScore(['I will not talk to anyone about this.'])).toBe(0);
    expect(planScore(["I won't call anyone tomorrow."])).toBe(0);
    expect(planScore(["I'll never do that."])).toBe(0);
    expect(planScore(["I'm not going to go out this week."])).toBe(0);
    expect(planScore(["I won't give up. I'll call her tonight."])).toBe(4);
  });

  it('reads a plan only from the last three user turns, and scores an empty transcript E = 2', () => {
    expect(planScore(['I will call my doctor tomorrow.', 'Okay.', 'Sure.', 'Right.'])).toBe(0);
    expect(planScore(['I will call my doctor tomorrow.', 'Okay.', 'Sure.'])).toBe(4);
    expect(planScore(['I will call my doctor.'])).toBe(3);
    expect(emotionScore([])).toBe(2);
    expect(emotionScore(['I feel down.'])).toBe(2);
  });

  it('a user who ends with thanks, a dated plan and relief is judged successful', async () => {
    const j = await judge.terminal(
      input('esconv', [
        'I am so stressed about my exams and I feel alone.',
        'Nothing I do seems to work.',
        'Thank you, I feel lighter now.',
        'I am going to make a study plan with my friend tomorrow.',
      ]),
    );
    expect(j.success).toBe(true);
  });

  it('reads no plan in the turn a user walks out with (a user quit event), and answers that turn worse', async () => {
    const users = ['I feel down.', 'Okay.', 'Forget it. I will figure it out on my own.'];
    const quit: TaskEvent[] = [{ turn: 2, by: 'user', type: 'quit' }];
    // Without the event the words read as a firm plan; with it the walk-out states none.
    expect((await judge.terminal(input('esconv', users))).scores.A).toBe(3);
    expect((await judge.terminal(input('esconv', users, quit))).scores.A).toBe(0);
    // The turns before the walk-out still count.
    const earlier = ['I feel down.', 'I will call my sister tomorrow.', 'I am going to stop here, sorry.'];
    expect((await judge.terminal(input('esconv', earlier, quit))).scores.A).toBe(4);
    const turn = async (u: string[], e: TaskEvent[]) => (await judge.turn(input('esconv', u, e))).labels[0];
    const thanks = ['I feel down.', 'Thanks, I am going to call my sister tomorrow.'];
    expect(await turn(thanks, [])).toBe('solved');
    expect(await turn(thanks, [{ turn: 1, by: 'user', type: 'quit' }])).toBe('worse');
  });

  it('answers the PPDPP turn question from the change of mood and a firm plan', async () => {
    const turn = async (users: string[]) => (await judge.turn(input('esconv', users))).labels[0];
    expect(await turn(['I feel down.', 'I feel a bit better.'])).toBe('better');
    expect(await turn(['I feel a bit better.', 'I feel down.'])).toBe('worse');
    expect(await turn(['Okay.', 'Sure.'])).toBe('same');
    expect(await turn(['I feel down.', 'Thanks, I am going to call my sister tomorrow.'])).toBe('solved');
    expect((await judge.turn(input('esconv', ['I feel down.', 'I feel a bit better.']))).reward).toBe(0.5);
  });
});

describe('P4G template judge', () => {
  const commit: TaskEvent = { turn: 3, by: 'user', type: 'commit', amount: 1.5 };
  const withdraw: TaskEvent = { turn: 5, by: 'user', type: 'withdraw' };

  it('pays 1 for an upheld commitment and 0 after a withdrawal or without one', async () => {
    expect(await judge.terminal(input('p4g', ['Okay.'], [commit]))).toEqual({
      utility: 1,
      success: true,
      scores: { committed: true, withdrawn: false, amount: 1.5 },
    });
    expect((await judge.terminal(input('p4g', ['Okay.'], [commit, withdraw]))).utility).toBe(0);
    expect((await judge.terminal(input('p4g', ['I will donate, I promise.'], []))).utility).toBe(0);
    expect(commitment([withdraw])).toEqual({ committed: false, withdrawn: true, amount: 0 });
  });

  it('answers refused / neutral / positive / donate per turn', async () => {
    const label = async (users: string[], events: TaskEvent[] = []) =>
      (await judge.turn(input('p4g', users, events))).labels[0];
    expect(await label(['Sure.'], [commit])).toBe('donate');
    expect(await label(['Actually no.'], [commit, withdraw])).toBe('refused');
    expect(await label(['I am not going to donate, sorry.'])).toBe('refused');
    expect(await label(['I might be willing to give something.'])).toBe('positive');
    expect(await label(['Hmm, maybe.'])).toBe('neutral');
  });
});

describe('CraigslistBargain template judge', () => {
  const view = { listPrice: 420, targetPrice: 300 };

  it('pays the deal share from the accepted price, 0 without a deal', async () => {
    const deal: TaskEvent[] = [
      { turn: 1, by: 'actor', type: 'offer', price: 330 },
      { turn: 1, by: 'user', type: 'offer', price: 390 },
      { turn: 2, by: 'actor', type: 'accept', price: 360 },
    ];
    expect(dealPrice(deal)).toBe(360);
    expect(await judge.terminal(input('cb', ['Deal.'], deal, view))).toEqual({
      utility: 0.5,
      success: true,
      scores: { deal: true, price: 360 },
    });
    const atList: TaskEvent[] = [{ turn: 1, by: 'user', type: 'accept', price: 420 }];
    expect(await judge.terminal(input('cb', ['Deal.'], atList, view))).toEqual({
      utility: 0,
      success: false,
      scores: { deal: true, price: 420 },
    });
    expect(await judge.terminal(input('cb', ['No.'], deal.slice(0, 2), view))).toEqual({
      utility: 0,
      success: false,
      scores: { deal: false, price: -1 },
    });
    await expect(judge.terminal(input('cb', ['No.'], []))).rejects.toThrow(/needs list and target prices/);
  });

  it('answers solved / worse / better / same per turn from the public events', async () => {
    const label = async (events: TaskEvent[]) =>
      (await judge.turn(input('cb', ['x'], events, view))).labels[0];
    const offer = (price: number): TaskEvent => ({ turn: 1, by: 'user', type: 'offer', price });
    expect(await label([{ turn: 1, by: 'user', type: 'accept', price: 400 }])).toBe('solved');
    // A deal at the list price gains the buyer nothing: not solved.
    expect(await label([{ turn: 1, by: 'user', type: 'accept', price: 420 }])).toBe('same');
    expect(await label([{ turn: 1, by: 'user', type: 'quit' }])).toBe('worse');
    expect(await label([offer(410), offer(395)])).toBe('better');
    expect(await label([offer(410), offer(410)])).toBe('same');
    expect(await label([offer(410)])).toBe('same');
  });
});

describe('task utilities', () => {
  it('cbUtility: 1 at the target, 0 at the list price, clipped outside, 0 without a deal', () => {
    expect(cbUtility(300, 420, 300)).toBe(1);
    expect(cbUtility(420, 420, 300)).toBe(0);
    expect(cbUtility(360, 420, 300)).toBe(0.5);
    expect(cbUtility(250, 420, 300)).toBe(1);
    expect(cbUtility(500, 420, 300)).toBe(0);
    expect(cbUtility(null, 420, 300)).toBe(0);
  });

  it('cbUtility: a list price not above the target is a InputError', () => {
    expect(() => cbUtility(300, 300, 300)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'TASK_INPUT_INVALID' }),
    );
    expect(() => cbUtility(300, 280, 300)).toThrow(/list price 280 must exceed target 300/);
    expect(() => cbUtility(null, NaN, 300)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'TASK_INPUT_INVALID' }),
    );
  });

  it('esconvUtility (E + A) / 8 with scores in [0, 4]; p4gUtility commit and not withdrawn', () => {
    expect(esconvUtility(4, 4)).toBe(1);
    expect(esconvUtility(1, 2)).toBe(0.375);
    expect(() => esconvUtility(4.5, 0)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'TASK_INPUT_INVALID' }),
    );
    expect(() => esconvUtility(0, -0.1)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'TASK_INPUT_INVALID' }),
    );
    expect(() => esconvUtility(NaN, 0)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'TASK_INPUT_INVALID' }),
    );
    expect([p4gUtility(true, false), p4gUtility(true, true), p4gUtility(false, false)]).toEqual([1, 0, 0]);
  });
});

describe('repeatedJudge', () => {
  /** A judge answering from scripts, one entry per call. */
  function stub(terminals: TerminalJudgment[], turns: TurnJudgment[]): Judge & { calls: number } {
    let t = 0;
    let u = 0;
    const j = {
      calls: 0,
      async terminal() {
        j.calls++;
        return terminals[t++ % terminals.length] as TerminalJudgment;
      },
      async turn() {
        j.calls++;
        return turns[u++ % turns.length] as TurnJudgment;
      },
    };
    return j;
  }
  const term = (utility: number, success: boolean, E: number, flag: boolean): TerminalJudgment => ({
    utility,
    success,
    scores: { E, flag },
  });
  const turn = (reward: number, label: string): TurnJudgment => ({
    labels: [label],
    reward,
    success: reward > 0.5,
  });
  const x = input('esconv', ['Okay.']);

  it('averages utilities and numeric scores and takes booleans by majority (3 repeats)', async () => {
    const inner = stub([term(0.2, true, 1, false), term(0.5, false, 2, true), term(0.8, true, 4, true)], []);
    const j = await repeatedJudge(inner, 3).terminal(x);
    expect(inner.calls).toBe(3);
    expect(j.utility).toBeCloseTo(0.5, 12);
    expect(j.success).toBe(true);
    expect(j.scores.E).toBeCloseTo(7 / 3, 12);
    expect(j.scores.flag).toBe(true);
  });

  it('needs a strict majority: 1 of 2 is false', async () => {
    const j = await repeatedJudge(stub([term(1, true, 0, true), term(0, false, 0, false)], []), 2).terminal(
      x,
    );
    expect(j.success).toBe(false);
    expect(j.scores.flag).toBe(false);
    expect(j.utility).toBe(0.5);
  });

  it('averages per-turn rewards over the samples; success only when the mean exceeds 0.5', async () => {
    const a = await repeatedJudge(
      stub([], [turn(1, 'solved'), turn(-1, 'worse'), turn(0.5, 'better')]),
      3,
    ).turn(x);
    expect(a.labels).toEqual(['solved', 'worse', 'better']);
    expect(a.reward).toBeCloseTo(1 / 6, 12);
    expect(a.success).toBe(false);
    const b = await repeatedJudge(
      stub([], [turn(1, 'solved'), turn(1, 'solved'), turn(0.5, 'better')]),
      3,
    ).turn(x);
    expect(b.reward).toBeCloseTo(5 / 6, 12);
    expect(b.success).toBe(true);
    const c = await repeatedJudge(stub([], [turn(1, 's'), turn(0, 'n')]), 2).turn(x);
    expect(c).toMatchObject({ reward: 0.5, success: false });
  });

  it('rejects a repeat count that is not a positive integer', () => {
    const inner = stub([], []);
    expect(() => repeatedJudge(inner, 0)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'JUDGE_INPUT_INVALID' }),
    );
    expect(() => repeatedJudge(inner, 1.5)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'JUDGE_INPUT_INVALID' }),
    );
    expect(() => repeatedJudge(inner, -3)).toThrow(/positive integer/);
  });
});
