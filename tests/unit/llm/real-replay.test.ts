/**
 * Replays of episodes the real model played: one short episode per task with every role — strategy
 * proposer, realizer, mode classifier, change proposer, responder, judge — on Gemma 3 270M Q4_K_M, recorded by
 * tests/fixtures/llm/real/record.ts. Replaying the recorded answers through the roles must give the recorded
 * transcript (or the recorded error), so the roles' parsing, validation and retries are tested on answers a real
 * small model wrote, not only on hand-written ones.
 */
import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../../src/llm/types';
import { playJob, transcriptOf } from '../../fixtures/llm/episode';
import type { RealEpisodeFixture } from '../../fixtures/llm/real/fixture';
import cb from '../../fixtures/llm/real/cb.gemma.replay.json';
import esconv from '../../fixtures/llm/real/esconv.gemma.replay.json';
import p4g from '../../fixtures/llm/real/p4g.gemma.replay.json';

const RECORDED = { esconv, p4g, cb } as unknown as Record<string, RealEpisodeFixture>;
const GEMMA_SHA256 = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';

/** Every recorded answer. */
function answers(f: RealEpisodeFixture): ChatResponse[] {
  return Object.values(f.fixture).flatMap((v) => (Array.isArray(v) ? v : [v]));
}

describe('episodes recorded from Gemma 3 270M replay as they were played', () => {
  for (const [task, recorded] of Object.entries(RECORDED)) {
    it(`${task}: same transcript (or error), every recorded answer used`, async () => {
      expect(recorded.model.sha256).toBe(GEMMA_SHA256);
      expect(recorded.job.task).toBe(task);
      const job = { ...recorded.job, language: { ...recorded.job.language, fixtures: recorded.fixture } };
      const run = playJob(job);
      if (recorded.expected.error !== null) {
        await expect(run).rejects.toThrow(recorded.expected.error.replace(/^\w+: /, ''));
        return;
      }
      const result = await run;
      expect(result.records.map(transcriptOf)).toEqual(recorded.expected.transcripts);
      expect(result.episodeUsage[0]!.calls).toBe(answers(recorded).length);
      // Every role of the episode answered from the model's recording (the proposer when a turn was Influence).
      const used = new Set(result.usage.filter((u) => u.calls > 0).map((u) => u.role));
      for (const role of ['strategy', 'realizer', 'mode', 'responder', 'judge']) expect(used).toContain(role);
      const influence = result.records[0]!.turns.some((t) => t.mode === 'Influence');
      expect(used.has('proposer')).toBe(influence);
    });
  }
});
