/**
 * `npm run sim-card` on the command line: --help and -h print what the command does with its options and
 * defaults, and a mistake (an unknown option, a missing report) is one line and exit 2, as in every command.
 */
import { describe, expect, it } from 'vitest';
import { HELP, main } from '../../../scripts/simulator-card';
import { cli } from './run-main';

describe('sim-card command line', () => {
  it('prints its help for --help and -h, with every option and its default', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await cli(main, [flag]);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toBe(`${HELP}\n`);
    }
    for (const text of [
      'Usage: npm run sim-card -- [options]',
      '--report FILE',
      'default results/studies/validity/validity.json',
      '--before FILE',
      'default results/simulator-card.before.json',
      '--out FILE',
      'default results/simulator-card.md',
      '--data DIR',
      'default ../shared/data',
      '--record-before',
      '-h, --help',
    ])
      expect(HELP).toContain(text);
  });

  it('refuses an unknown option and a missing report with one line and exit 2, before any work', async () => {
    const bogus = await cli(main, ['--bogus']);
    expect(bogus).toEqual({
      code: 2,
      out: '',
      err: "error: Unknown option '--bogus'\nRun with --help for the options.\n",
    });
    expect((await cli(main, ['--reprot', 'x.json'])).err).toContain('(did you mean --report?)');
    const missing = await cli(main, ['--report', 'no/such/validity.json']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^error: --report: no validate-sim report at .*no\/such\/validity\.json; /);
    expect(missing.err).not.toContain('    at ');
  });
});
