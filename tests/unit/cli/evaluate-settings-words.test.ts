/**
 * evaluate --resume's refusal of another setting reads as a sentence also when the stored evaluation lacks the
 * option (a settings.json written before it was recorded) or was started without it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkResumeSettings, SETTINGS_FILE, storedSetting } from '../../../cli/evaluate-settings';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function refusal(stored: Record<string, unknown>, current: Record<string, unknown>): Promise<string> {
  dir ||= await mkdtemp(join(tmpdir(), 'pdl-eval-settings-'));
  await writeFile(join(dir, SETTINGS_FILE), JSON.stringify(stored));
  try {
    await checkResumeSettings(dir, current);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

describe('evaluate --resume: the stored value in words', () => {
  it('a setting the stored evaluation does not record', async () => {
    const message = await refusal({ task: ['cb'] }, { task: ['cb'], horizon: 10 });
    expect(message).toContain('--horizon 10 (the stored evaluation does not record it)');
    expect(message).not.toContain('(not recorded)');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('a setting the stored evaluation was started without (null), and one it has', async () => {
    expect(await refusal({ task: ['cb'], horizon: null }, { task: ['cb'], horizon: 10 })).toContain(
      '--horizon 10 (the evaluation was started without it)',
    );
    expect(await refusal({ task: ['cb'], horizon: 8 }, { task: ['cb'], horizon: null })).toContain(
      '--horizon (not given) (the evaluation has 8)',
    );
    expect(storedSetting({ route: 'stochastic' }, 'route')).toBe('the evaluation has stochastic');
  });
});
