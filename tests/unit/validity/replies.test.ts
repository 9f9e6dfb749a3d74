/**
 * Replies a person would give: the template user's replies agree with its state (stance, intention,
 * mood), vary, restate a repeated answer after "As I said," and never recite the seed's situation or listing.
 */
import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../../src/agents/rollout';
import { loadSeedsFromPath } from '../../../src/data/node';
import { DialogueEnv } from '../../../src/env';
import { TASK_IDS, type Seed } from '../../../src/tasks';
import { DEFAULT_SEEDS, defaultSeeds } from '../../../src/tasks/defaults';

import {
  humanRepliesOf,
  longestSharedRun,
  matchedVariety,
  replyContradictions,
  replyRow,
  wordsOf,
} from '../../../src/validity/replies';
import { esconvDialogues, type ReplayDialogue } from '../../../src/validity/datasets';
import { readFileSync } from 'node:fs';
import { DATA_DIR } from '../data/paths';

/** A P4G turn record whose state holds the given intentions and valence (the rest from a bundled seed). */
function p4gTurn(reply: string, donate: number, decline: number, valence: number): TurnRecord {
  const seed = DEFAULT_SEEDS.p4g[0] as Seed;
  const cog = structuredClone(seed.cognitive);
  for (const r of cog.intentions) {
    if (r.id === 'i-donate') r.strength = donate;
    if (r.id === 'i-decline') r.strength = decline;
  }
  cog.affect = { ...cog.affect, valence };
  return {
    turn: 3,
    action: { utterance: 'x', strategy: 'x' },
    userUtterance: reply,
    mode: 'Influence',
    route: 'central',
    judgment: 'reject',
    rejectedProposal: null,
    events: [],
    reward: 0,
    state: { cognitive: cog, turn: 4, remaining: 6, ended: null, lastUserPrice: null, revealed: [] },
  };
}

describe('replyContradictions (the check reads the reply against the state)', () => {
  it('finds the issue\'s "does not change my mind … willing to give" at a state that does not lean', () => {
    const turn = p4gTurn(
      'That does not really change my mind. I might be willing to give something.',
      1,
      3,
      -0.3,
    );
    const found = replyContradictions('p4g', turn);
    expect(found.some((c) => c.startsWith('says it leans toward acting'))).toBe(true);
    expect(found).toContain('disagrees yet leans toward acting, with no contrast');
  });

  it('accepts the same stance and intention joined by a contrast when the state leans', () => {
    const turn = p4gTurn('That does not really change my mind. Still, I might give a little.', 3, 1, -0.3);
    expect(replyContradictions('p4g', turn)).toEqual([]);
  });

  it('finds a good mood at a negative valence and a bad one at a positive valence, reading negation', () => {
    expect(replyContradictions('p4g', p4gTurn('I am glad to hear that.', 1, 3, -0.4))).toContain(
      'a good mood at valence -0.40',
    );
    expect(replyContradictions('p4g', p4gTurn('I am worried about it.', 1, 3, 0.4))).toContain(
      'a bad mood at valence 0.40',
    );
    expect(replyContradictions('p4g', p4gTurn('I am not worried about it.', 1, 3, 0.4))).toEqual([]);
  });

  it('refuses a turn without state', () => {
    const { state: _, ...bare } = p4gTurn('Okay.', 1, 1, 0);
    expect(() => replyContradictions('p4g', bare)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'VALIDITY_INPUT' }),
    );
  });

  it('reads words as a person writes them: contractions spelled out, punctuation dropped', () => {
    expect(wordsOf("I don't think I'll give.")).toEqual(['i', 'do', 'not', 'think', 'i', 'will', 'give']);
    expect(longestSharedRun('I sold my old red bike today', 'An old red bike, barely used')).toBe(3);
  });
});

describe('template replies', () => {
  it('agree with the state: no stance, intention or mood contradiction over a few thousand turns', async () => {
    let turns = 0;
    const found: string[] = [];
    for (const task of TASK_IDS) {
      const row = await replyRow(task, DEFAULT_SEEDS[task], { episodesPerSeed: 4 });
      turns += row.replies;
      if (row.contradictions > 0) found.push(`${task}: ${row.contradictions}`);
      if (row.unfilled > 0) found.push(`${task}: ${row.unfilled} unfilled`);
      if (row.formDefects !== 0) found.push(`${task}: ${row.formDefects} with a slip of form`);
    }
    expect(turns).toBeGreaterThan(2500);
    expect(found).toEqual([]);
  }, 180_000);

  it('vary: distinct-2 ≥ 0.25 on every task over the bundled seeds (random policy), no verbatim repeat', async () => {
    for (const task of TASK_IDS) {
      const row = await replyRow(task, DEFAULT_SEEDS[task]);
      expect(row.distinct2, task).toBeGreaterThanOrEqual(0.25);
      expect(row.verbatimRepeats, task).toBe(0);
      expect(row.unfilled, task).toBe(0);
    }
  });

  it('dataset seeds: P4G episodes rarely end on the same line, replies vary past the bank, and none recites an ESConv situation or a CB listing', async () => {
    const p4g = (await loadSeedsFromPath(`${DATA_DIR}/p4g`, 'p4g')).seeds.slice(0, 273);
    const endings = await replyRow('p4g', p4g);
    expect(endings.sameEnding / endings.episodes).toBeLessThan(0.15);
    // Replies name the user's own content (content.ts), so dataset seeds vary more than the bank alone gives
    // (distinct-2 before content phrases: P4G 0.042, ESConv 0.112, CB 0.229 on these seeds).
    expect(endings.distinct2).toBeGreaterThanOrEqual(0.05);
    for (const [task, file] of [
      ['esconv', 'esconv/esconv-valid.jsonl'],
      ['cb', 'cb/craigslistbargain-valid.jsonl'],
    ] as const) {
      const seeds = (await loadSeedsFromPath(`${DATA_DIR}/${file}`, task)).seeds.slice(0, 60);
      const row = await replyRow(task, seeds);
      expect(row.longestEcho, task).toBeLessThanOrEqual(6);
      expect(row.distinct2, task).toBeGreaterThanOrEqual(task === 'esconv' ? 0.13 : 0.26);
      expect(row.contradictions, task).toBe(0);
      expect(row.formDefects, task).toBe(0);
    }
    // Slips of form on the P4G dataset seeds, where slot values come from the persuadees' own words: "this
    // children", "Also, and …" were in 4% of these replies before the slot filler agreed in number.
    expect(endings.formDefects).toBe(0);
  }, 180_000);

  it('a question asked again gets "As I said, …" and a short restatement, not the same answer', async () => {
    const env = new DialogueEnv('esconv', { routeSampling: 'deterministic' });
    for (const seed of defaultSeeds('esconv').slice(0, 6)) {
      env.reset({ seed });
      const first = await env.step({ utterance: 'What happened?', strategy: 'Question' });
      const second = await env.step({ utterance: 'Sorry, what happened exactly?', strategy: 'Question' });
      const a = first.info.sim.userUtterance;
      const b = second.info.sim.userUtterance;
      expect(b, seed.id).toMatch(/^(As I said|Like I said|As I mentioned|I said it before)/);
      expect(b, seed.id).not.toBe(a);
      expect(longestSharedRun(b, seed.userPrivate.situation ?? ''), seed.id).toBeLessThanOrEqual(6);
    }
  });
});

describe('reply variety next to the human users at an equal count', () => {
  const dialogue = (id: string, users: (string | null)[]): ReplayDialogue =>
    ({
      task: 'esconv',
      id,
      purpose: 'turns',
      seed: DEFAULT_SEEDS.esconv[0] as Seed,
      prefix: [],
      steps: users.map((user) => ({ actor: 'a', user, reaction: null, userSentiment: null })),
      outcome: {},
    }) as ReplayDialogue;

  it('takes the user turns of the seeds’ own dialogues, in seed order, matching a P4G id after its file stem', () => {
    const dialogues = [
      dialogue('x:1', ['one', null, ' ', 'two']),
      dialogue('D7', ['three']),
      dialogue('D7', ['ignored: the same dialogue from a second file']),
      dialogue('unplayed', ['four']),
    ];
    expect(humanRepliesOf(dialogues, [{ id: 'p4g-dialogs:D7' }, { id: 'x:1' }, { id: 'none:2' }])).toEqual([
      'three',
      'one',
      'two',
    ]);
  });

  it('compares the first n replies of each side, n the smaller count', () => {
    const sim = ['I am fine thanks', 'I am fine thanks', 'I am fine thanks'];
    const human = ['Not great today', 'My exam went badly'];
    const m = matchedVariety(sim, human);
    expect(m.replies).toBe(2);
    // Simulator: 6 bigrams, 3 distinct; human: 5 bigrams, all distinct.
    expect(m.distinct2).toBeCloseTo(3 / 6, 12);
    expect(m.humanDistinct2).toBe(1);
    expect(matchedVariety([], human)).toMatchObject({ replies: 0, distinct2: 0, humanDistinct2: 0 });
  });

  it('replyRow adds the comparison on dataset seeds, the human users more varied than the template user', async () => {
    const seeds = (await loadSeedsFromPath(`${DATA_DIR}/esconv/esconv-valid.jsonl`, 'esconv')).seeds.slice(
      0,
      20,
    );
    const dialogues = esconvDialogues({
      name: 'esconv-valid.jsonl',
      text: readFileSync(`${DATA_DIR}/esconv/esconv-valid.jsonl`, 'utf8'),
    });
    const human = humanRepliesOf(dialogues, seeds);
    const row = await replyRow('esconv', seeds, { humanReplies: human });
    expect(row.matched?.replies).toBe(Math.min(row.replies, human.length));
    expect(row.matched!.replies).toBeGreaterThan(100);
    expect(row.matched!.humanDistinct2).toBeGreaterThan(row.matched!.distinct2);
    expect((await replyRow('esconv', seeds.slice(0, 2))).matched).toBeUndefined();
  });
});
