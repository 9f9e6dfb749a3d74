/**
 * `validate-sim --backend`: the teacher-forced replay with the simulator's roles on a language backend. The
 * fixtures (tests/fixtures/llm/validity-cli*.replay.json, recorded by validity-cli.author.ts through the command's
 * own option parsing, dialogue reading and role building) hold a help-seeker that takes every supporter turn well,
 * and one whose mode answers are outside the label set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, parseValidateArgs, runValidateCli } from '../../../cli/validate-sim';
import type { ValidityReport } from '../../../src/validity/report';
import { VALIDITY_CLI_ARGS } from '../../fixtures/llm/validity-cli-cases';
import { RoleOutputError } from '../../../src/errors';

const FIXTURES = join(__dirname, '../../fixtures/llm');
const GOOD = join(FIXTURES, 'validity-cli.replay.json');
const MALFORMED = join(FIXTURES, 'validity-cli-malformed.replay.json');

/** Runs validate-sim on the fixture's arguments plus `extra`; an option of `extra` replaces the fixture's own. */
async function run(extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  // Drop the fixture's options (each with its value, when one follows) that `extra` gives again.
  const given = new Set(extra.filter((a) => a.startsWith('--')));
  const base: string[] = [];
  for (let i = 0; i < VALIDITY_CLI_ARGS.length; i++) {
    const option = VALIDITY_CLI_ARGS[i] as string;
    const value = VALIDITY_CLI_ARGS[i + 1];
    const width = value !== undefined && !value.startsWith('--') ? 2 : 1;
    if (!given.has(option)) base.push(...VALIDITY_CLI_ARGS.slice(i, i + width));
    i += width - 1;
  }
  const code = await main([...base, ...extra], {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
  });
  return { code, ...out };
}

const kappa = (r: ValidityReport, split: string) =>
  r.rows.find((row) => row.split === split && row.measure.endsWith("Cohen's kappa"))?.simulator;

describe('validate-sim --backend', () => {
  it('replays with the fixture’s answers: other decisions than template, roles and calls recorded', async () => {
    const template = await run([]);
    const replayed = await run(['--backend', 'replay', '--fixtures', GOOD]);
    expect(template.code).toBe(0);
    expect(replayed.code).toBe(0);
    const t = JSON.parse(template.stdout) as ValidityReport;
    const r = JSON.parse(replayed.stdout) as ValidityReport;
    expect(t.language).toBeUndefined();
    // The same sample: 2 dialogues per split, 3 turns each.
    expect(r.datasets).toEqual(t.datasets);
    expect(r.datasets).toEqual([{ task: 'esconv', purpose: 'turns', dev: 2, heldOut: 2, steps: 12 }]);
    expect(r.sample).toEqual({ dialoguesPerSplit: 2, maxTurns: 3 });
    // Every turn taken well moves the valence up on every turn: the agreement with people changes.
    expect(kappa(r, 'dev')).toBeDefined();
    expect(kappa(r, 'dev')).not.toEqual(kappa(t, 'dev'));
    expect(r.rows.map((row) => row.simulator)).not.toEqual(t.rows.map((row) => row.simulator));
    // Dose–response, reply variety and the exploit table stay template.
    expect(r.dose).toEqual(t.dose);
    expect(r.replies).toEqual(t.replies);
    expect(r.exploits?.tasks.map((x) => x.seeds)).toEqual([2]);
    expect(r.exploits).toEqual(t.exploits);
    const roles = Object.fromEntries(r.language!.roles.map((x) => [x.role, x]));
    expect(roles.mode).toMatchObject({ backend: 'replay', calls: 12 });
    expect(roles.proposer).toMatchObject({ backend: 'replay', calls: 24 });
    expect(roles.responder).toMatchObject({ backend: 'template', calls: 0 });
    // Every recorded answer was asked for once: 12 turns, each Influence (mode, assessment, proposal).
    const fixture = (JSON.parse(readFileSync(GOOD, 'utf8')) as { fixture: Record<string, unknown[]> })
      .fixture;
    expect(Object.values(fixture).flat()).toHaveLength(36);
    expect(r.language!.scope).toMatch(/responder stays template/);
  });

  it('a malformed answer ends the run in the typed role error (exit 1, its message)', async () => {
    const args = parseValidateArgs([
      ...VALIDITY_CLI_ARGS,
      '--backend',
      'mode=replay',
      '--fixtures',
      MALFORMED,
    ]);
    if (args === 'help') throw new Error('unexpected help');
    const err = await runValidateCli(args, () => {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
    expect(err).toMatchObject({ code: 'LLM_ROLE_OUTPUT_INVALID', role: 'mode' });
    expect((err as RoleOutputError).rawAnswers).toHaveLength(3);
    const cli = await run(['--backend', 'mode=replay', '--fixtures', MALFORMED]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/mode \(mode\): no valid structured answer after 3 attempt/);
    expect(cli.stdout).toBe('');
  });

  it.each([
    [['--backend', 'responder=replay', '--fixtures', GOOD], /responder's reply is discarded/],
    [['--backend', 'judge=llamacpp', '--model', 'x.gguf'], /runs only the simulator's roles/],
    [['--backend', 'webllm', '--model', 'm'], /WebLLM runs only in a browser/],
    [['--backend', 'replay'], /--backend replay needs --fixtures FILE/],
    [['--backend', 'llamacpp', '--model', 'x.gguf', '--concurrency', '2'], /Unknown option '--concurrency'/],
    [['--sample', '0'], /--sample must be an integer in 1 to 100,000, got "0"/],
    [['--max-turns', 'x'], /--max-turns must be an integer in 1 to 1,000/],
  ])('%j: a usage error (exit 2), nothing run', async (extra, message) => {
    const r = await run(extra);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
