/**
 * A full episode of each task with every language role (strategy proposer, realizer, mode classifier, change
 * proposer, responder, judge ×3) on the replay backend, from the recorded fixtures in
 * tests/fixtures/llm/episodes/. The recordings include malformed answers, which the roles retry.
 */
import { describe, expect, it } from 'vitest';

import type { ChatRequest, ChatResponse } from '../../../src/llm/types';
import type { SimState } from '../../../src/sim/types';
import { CHANGE_LIMITS } from '../../../src/sim/updater';
import { playJob, replayJob, transcriptOf, type EpisodeFixture } from '../../fixtures/llm/episode';
import cbFixture from '../../fixtures/llm/episodes/cb.replay.json';
import esconvArgFixture from '../../fixtures/llm/episodes/esconv-arg.replay.json';
import esconvFixture from '../../fixtures/llm/episodes/esconv.replay.json';
import p4gFixture from '../../fixtures/llm/episodes/p4g.replay.json';
import { RoleScriptBackend } from '../../fixtures/llm/scripted';
import { ESCONV_SCRIPT } from '../../fixtures/llm/scripts/esconv';

const EPISODES = {
  esconv: esconvFixture as unknown as EpisodeFixture,
  p4g: p4gFixture as unknown as EpisodeFixture,
  cb: cbFixture as unknown as EpisodeFixture,
};

const ARG_EPISODE = esconvArgFixture as unknown as EpisodeFixture;

const LLM_ROLES = ['strategy', 'realizer', 'mode', 'proposer', 'responder', 'judge'];
const ARG_ROLES = ['arg', 'realizer', 'predictor', 'mode', 'proposer', 'responder', 'judge'];

/** Every answer text recorded in a fixture. */
function recordedAnswers(e: EpisodeFixture): string[] {
  return Object.values(e.fixture)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .map((r: ChatResponse) => r.choices[0]!.message.content);
}

describe('full episodes with every role on the replay backend', () => {
  const all: [string, EpisodeFixture, string[]][] = [
    ...Object.entries(EPISODES).map(([t, e]): [string, EpisodeFixture, string[]] => [t, e, LLM_ROLES]),
    ['esconv with the ARG policy (PPDPP protocol)', ARG_EPISODE, ARG_ROLES],
  ];
  for (const [task, episode, roles] of all) {
    it(`${task}: reproduces the recorded episode, calls and tokens`, async () => {
      const result = await playJob(replayJob(episode));
      expect(result.records).toHaveLength(1);
      expect(result.records.map(transcriptOf)).toEqual(episode.expected.transcripts);
      expect(result.episodeUsage).toEqual(episode.expected.episodeUsage);
      const used = result.usage.filter((u) => u.calls > 0).map((u) => u.role);
      expect(used.sort()).toEqual([...roles].sort());
      for (const u of result.usage.filter((x) => x.calls > 0)) {
        expect(u.backend).toBe('replay');
        expect(u.promptTokens).toBeGreaterThan(u.completionTokens);
      }
      // Every recorded answer was used (the retried malformed ones too): the fixture holds nothing else.
      const total = result.episodeUsage[0]!.calls;
      expect(total).toBe(recordedAnswers(episode).length);
    });
  }

  it('the episodes end as designed: ESConv user-ended, P4G upheld commitment, CB deal at the accepted offer', async () => {
    const [esconv, p4g, cb] = await Promise.all(
      (['esconv', 'p4g', 'cb'] as const).map((t) => playJob(replayJob(EPISODES[t]))),
    );
    expect(esconv!.records[0]!.endReason).toBe('user-ended');
    expect(esconv!.records[0]!.success).toBe(true);
    const p = p4g!.records[0]!;
    expect(p.endReason).toBe('user-ended');
    expect(p.turns.flatMap((t) => t.events).some((e) => e.type === 'commit')).toBe(true);
    expect(p.utility).toBe(1);
    const c = cb!.records[0]!;
    expect(c.endReason).toBe('deal');
    const accept = c.turns.flatMap((t) => t.events).find((e) => e.type === 'accept');
    expect(c.judgeScores.price).toBe(accept!.price);
    expect(c.utility).toBeCloseTo((420 - accept!.price!) / (420 - 300), 12);
  });

  it('the malformed answers are in the fixtures and were retried', () => {
    const all = Object.values(EPISODES).flatMap(recordedAnswers);
    expect(all).toContain('Influence'); // not JSON
    expect(all).toContain('{"strategy":"Empathy"}'); // outside the label set
    expect(all.some((a) => a.includes('"utterance":"Persuader:"'))).toBe(true); // empty utterance
    expect(all.some((a) => a.includes('"reply":"   "'))).toBe(true); // empty reply
    const cut = Object.values(EPISODES)
      .flatMap((e) => Object.values(e.fixture).flat() as ChatResponse[])
      .filter((r) => r.choices[0]!.finish_reason === 'length');
    expect(cut.length).toBeGreaterThanOrEqual(2); // cut at max_tokens
    expect(all.some((a) => a.includes('"delta":2.5'))).toBe(true); // breaks the updater's limits
  });

  it('strips role prefixes and label lines before the simulator sees the utterance', () => {
    const first = EPISODES.esconv.expected.transcripts[0]!.turns[0]!;
    expect(recordedAnswers(EPISODES.esconv).some((a) => a.includes('Supporter: Supporter:'))).toBe(true);
    expect(first.action.utterance).toMatch(/^It sounds like/);
    expect(first.action.strategy).toBe('Reflection of feelings');
  });

  it('clips the over-limit proposal and leaves the records unchanged after the rejected one', async () => {
    const job = { ...replayJob(EPISODES.esconv), keepState: true };
    const turns = (await playJob(job)).records[0]!.turns;
    const strength = (s: Pick<SimState, 'cognitive'>, id: string) =>
      [...s.cognitive.beliefs, ...s.cognitive.desires, ...s.cognitive.intentions].find((r) => r.id === id)!
        .strength;
    // Turn 2 proposed +2.5 on the step intention; peripheral accept allows 0.6.
    expect(turns[2]!.route).toBe('peripheral');
    expect(strength(turns[2]!.state!, 'i-step') - strength(turns[1]!.state!, 'i-step')).toBeCloseTo(
      CHANGE_LIMITS.peripheral.accept.intention,
      9,
    );
    // Turn 3 named an unknown record: rejected, the records are exactly those after turn 2.
    expect(turns[3]!.rejectedProposal).toMatch(/b-sleep/);
    const records = (t: (typeof turns)[number]) => {
      const { beliefs, desires, intentions } = t.state!.cognitive;
      return { beliefs, desires, intentions };
    };
    expect(records(turns[3]!)).toEqual(records(turns[2]!));
  });

  it('the ARG policy sends the candidate its lookahead ranks best and stops at PPDPP success', async () => {
    const result = await playJob(replayJob(ARG_EPISODE));
    const record = result.records[0]!;
    expect(record.protocol).toBe('ppdpp');
    expect(record.terminated).toBe(true);
    expect(record.endReason).toBeNull();
    // Turn 1: the realizer's candidate, predicted calmer two steps ahead, beat the ARG actor's own reply.
    const realized = recordedAnswers(ARG_EPISODE).find((a) => a.includes('That must be so stressful'))!;
    expect(record.turns[0]!.action.utterance).toBe(
      (JSON.parse(realized) as { candidates: { utterance: string }[] }).candidates[0]!.utterance,
    );
    // PPDPP rewards: mean of three judge samples per turn; success once it exceeds 0.5.
    expect(record.turns.map((t) => t.reward)).toEqual([(-0.5 + 0.5 - 0.5) / 3, 0.5, (1 + 1 + 0.5) / 3]);
    const predictor = result.usage.find((u) => u.role === 'predictor')!;
    expect(predictor.calls).toBe(13); // 3 turns × 2 candidates × 2 steps, plus one retried answer
  });

  it('keeps role boundaries: no strategy label reaches the simulator or the judge, no latent state the actor or the judge', async () => {
    const requests: { name: string; text: string }[] = [];
    const inner = new RoleScriptBackend(ESCONV_SCRIPT.answers);
    const spy = {
      name: 'spy',
      complete: (r: ChatRequest) => {
        const f = r.response_format;
        requests.push({
          name: f?.type === 'json_schema' ? f.json_schema.name : 'text',
          text: r.messages.map((m) => m.content).join('\n'),
        });
        return inner.complete(r);
      },
    };
    const { records } = await playJob(
      { ...ESCONV_SCRIPT.job, language: { default: { kind: 'replay' }, fixtures: {} } },
      { runtime: { record: spy } },
    );
    const labels = [...new Set(records[0]!.turns.map((t) => t.action.strategy))];
    expect(labels.length).toBeGreaterThan(3);
    const simOrJudge = requests.filter((r) =>
      ['mode', 'assessment', 'proposal', 'reply', 'esconv_verdict'].includes(r.name),
    );
    const actorOrJudge = requests.filter((r) =>
      ['strategy', 'candidates', 'esconv_verdict'].includes(r.name),
    );
    expect(simOrJudge.length).toBeGreaterThan(20);
    for (const r of simOrJudge) for (const label of labels) expect(r.text, r.name).not.toContain(label);
    for (const r of actorOrJudge) {
      expect(r.text, r.name).not.toMatch(/b-hopeless|i-step|Beliefs:|strength 0 = not held|Persona:/);
    }
    // The simulator's roles do read the user's own state.
    expect(requests.find((r) => r.name === 'proposal')!.text).toMatch(/b-hopeless \[/);
  });

  it('a different dialogue is not in the fixture: FixtureMissingError instead of a made-up answer', async () => {
    const job = replayJob(EPISODES.p4g);
    const seed = structuredClone(job.seeds[0]!);
    seed.prefix[3]!.text = 'I never give to charities.';
    await expect(playJob({ ...job, seeds: [seed] })).rejects.toMatchObject({
      name: 'FixtureMissingError',
      code: 'LLM_FIXTURE_MISSING',
    });
  });
});
