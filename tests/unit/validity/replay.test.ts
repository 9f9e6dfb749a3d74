/**
 * The teacher-forced replay (src/validity): reading human dialogues with their reactions, the label groupings,
 * the dev / held-out split, and the replay's defining property — the simulator's decision on a turn never
 * depends on the human reply to that turn or to any later one.
 */
import { describe, expect, it } from 'vitest';
import { readData } from '../data/paths';
import {
  cbDialogues,
  esconvDialogues,
  p4gDialogues,
  replayDialogues,
  splitOf,
  type ReplayDialogue,
} from '../../../src/validity/datasets';

import { cbReaction, p4gReaction, p4gTurnReaction } from '../../../src/validity/labels';
import { replayDialogue } from '../../../src/validity/replay';
import { getTask } from '../../../src/tasks/registry';
import { templateSimRoles, type DonationInput, type SimView } from '../../../src/sim';
import { csvFirstDialogues, jsonlHead, smallFiles } from './helpers';

describe('label groupings', () => {
  it('groups P4G persuadee labels toward donating or the question, in any spelling', () => {
    expect(p4gReaction('positive-reaction-to-donation', 'x')).toBe('positive');
    expect(p4gReaction('Ask Donation Procedure', 'x')).toBe('positive');
    expect(p4gReaction('disagree-donation-more', 'x')).toBe('negative');
    expect(p4gReaction('negative-to-inquiry', 'x')).toBe('negative');
    expect(p4gReaction('ask-org-info', 'x')).toBe('neutral-or-other');
    expect(p4gReaction('', 'x')).toBe('neutral-or-other');
    expect(p4gTurnReaction(['neutral-or-other', 'negative', 'positive'])).toBe('negative');
    expect(p4gTurnReaction(['neutral-or-other'])).toBe('neutral-or-other');
  });

  it('groups CB seller acts, and names an unknown label with where it was read', () => {
    expect(
      ['agree', 'counter-noprice', 'propose', 'deny', 'inform'].map((l) => cbReaction(l, 'f:1')),
    ).toEqual(['agree', 'counter', 'counter', 'disagree', 'other']);
    expect(() => cbReaction('haggle', 'cb.jsonl:7')).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'VALIDITY_INPUT' }),
    );
    expect(() => p4gReaction('maybe-later', 'p4g.csv:12')).toThrow(
      /p4g\.csv:12: unknown persuadee label "maybe-later"/,
    );
  });
});

describe('replay dialogues from the datasets', () => {
  it('ESConv: the prefix is the seed’s, and each later supporter turn is paired with the seeker’s reply', () => {
    const ds = esconvDialogues({
      name: 'esconv-valid.jsonl',
      text: jsonlHead('esconv/esconv-valid.jsonl', 5),
    });
    expect(ds).toHaveLength(5);
    for (const d of ds) {
      expect(d.prefix.map((t) => t.text)).toEqual(d.seed.prefix.map((t) => t.text));
      expect(d.steps.length).toBeGreaterThan(0);
      for (const s of d.steps) {
        expect(s.actor.trim()).not.toBe('');
        if (s.user === null) expect(s.reaction).toBeNull();
        else expect(getTask('esconv').validity.reactions).toContain(s.reaction);
      }
    }
    expect(ds[0]?.id).toBe('esconv-valid:1');
  });

  it('CB: seller acts after each buyer turn, and the humans’ deal', () => {
    const ds = cbDialogues({ name: 'cb.jsonl', text: jsonlHead('cb/craigslistbargain-valid.jsonl', 12) });
    const reactions = ds.flatMap((d) => d.steps.map((s) => s.reaction).filter((r) => r !== null));
    expect(new Set(reactions).size).toBeGreaterThan(1);
    for (const r of reactions) expect(getTask('cb').validity.reactions).toContain(r);
    expect(ds.some((d) => d.outcome.deal === true)).toBe(true);
  });

  it('P4G: annotated dialogues carry reactions and the survey outcome; the annotated file stands in for the dialogues file', () => {
    const ds = p4gDialogues({
      annotated: { name: 'p4g-annotated.csv', text: csvFirstDialogues('p4g/p4g-annotated.csv', 4) },
      participants: { name: 'p4g-participants.csv', text: readData('p4g/p4g-participants.csv') },
    });
    expect(ds.filter((d) => d.purpose === 'turns')).toHaveLength(4);
    expect(ds.filter((d) => d.purpose === 'outcome')).toHaveLength(4);
    const first = ds[0] as ReplayDialogue;
    expect(first.id).toBe('20180723-042344_940_live');
    expect(first.steps.some((s) => s.reaction === 'positive')).toBe(true);
    for (const d of ds) {
      expect(typeof d.outcome.donated).toBe('boolean');
      expect(d.outcome.traits?.length).toBeGreaterThan(10);
    }
  });

  it('P4G without a sentence file is a clear error', () => {
    expect(() => p4gDialogues({})).toThrow(/needs p4g-dialogs\.csv or p4g-annotated\.csv/);
  });

  it('splits about a fifth of the dialogues off as held-out, by the id alone', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `dialogue-${i}`);
    const held = ids.filter((id) => splitOf(id) === 'held-out').length;
    expect(held / ids.length).toBeGreaterThan(0.16);
    expect(held / ids.length).toBeLessThan(0.24);
    expect(ids.map(splitOf)).toEqual(ids.map(splitOf));
  });
});

describe('teacher-forced replay', () => {
  const dialogues = replayDialogues(smallFiles()).filter((d) => d.purpose === 'turns');

  it('decides every step, deterministically, with reactions of the task', async () => {
    for (const d of dialogues.slice(0, 12)) {
      const a = await replayDialogue(d);
      const b = await replayDialogue(d);
      expect(a.decisions).toEqual(b.decisions);
      expect(a.decisions).toHaveLength(d.steps.length);
      for (const x of a.decisions) expect(getTask(d.task).validity.reactions).toContain(x.reaction);
      expect(a.final.intention).toBeGreaterThanOrEqual(0);
      expect(a.final.intention).toBeLessThanOrEqual(4);
    }
  });

  it('P4G: reports the end-of-episode donation probability and its inputs; other tasks none', async () => {
    const tasks = new Set<string>();
    for (const d of replayDialogues(smallFiles())) {
      if (tasks.has(`${d.task}|${d.purpose}`)) continue;
      tasks.add(`${d.task}|${d.purpose}`);
      const { final } = await replayDialogue(d);
      if (d.task !== 'p4g') {
        expect(final.donation).toBeNull();
        expect(final.donationInputs).toBeNull();
        continue;
      }
      expect(final.donation).toBeGreaterThan(0);
      expect(final.donation).toBeLessThan(1);
      const x = final.donationInputs as Record<DonationInput, number>;
      expect(x.prior + x.persuasion).toBeCloseTo(final.intention, 9);
    }
    expect(tasks.has('p4g|outcome')).toBe(true);
  });

  it('never reads the human reply to decide: replacing replies from turn t on leaves decisions up to t unchanged', async () => {
    let compared = 0;
    for (const d of dialogues) {
      if (d.steps.length < 3) continue;
      const t = Math.floor(d.steps.length / 2);
      const original = await replayDialogue(d);
      const altered: ReplayDialogue = {
        ...d,
        steps: d.steps.map((s, i) =>
          i >= t && s.user !== null
            ? { ...s, user: 'No. I will never do that, this is awful and I am leaving.' }
            : s,
        ),
      };
      const replayed = await replayDialogue(altered);
      expect(replayed.decisions.slice(0, t + 1)).toEqual(original.decisions.slice(0, t + 1));
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('puts the human reply to turn t − 1 in the history the simulator sees at turn t, and never the reply to turn t', async () => {
    const d = dialogues.find((x) => x.task === 'esconv' && x.steps.length >= 3) as ReplayDialogue;
    const seen: string[][] = [];
    const roles = templateSimRoles();
    const spy = {
      ...roles,
      modeClassifier: {
        classify: (utterance: string, view: SimView) => {
          seen.push(view.history.map((t) => t.text));
          return roles.modeClassifier.classify(utterance, view);
        },
      },
    };
    const r = await replayDialogue(d, { roles: spy });
    expect(seen.length).toBe(r.decisions.filter((x) => !x.carried).length);
    seen.forEach((history, t) => {
      const step = d.steps[t] as ReplayDialogue['steps'][number];
      expect(history.at(-1)).not.toBe(step.user);
      if (t > 0) {
        const previous = d.steps[t - 1] as ReplayDialogue['steps'][number];
        expect(history.at(-1)).toBe(previous.user ?? previous.actor);
      } else expect(history).toEqual(d.prefix.map((x) => x.text));
    });
  });
});
