/** Building the language roles from a configuration: per-role mixes, backends, usage, record mode. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LlmPolicy } from '../../../src/agents/llm/policy';
import { LlmRealizer } from '../../../src/agents/llm/realizer';
import { TemplateRealizer } from '../../../src/agents/realizer';
import { ArgPolicy } from '../../../src/appraisal/policy';
import { LlmArgActor, LlmReversePredictor } from '../../../src/appraisal/llm';
import type { ChatRequest } from '../../../src/llm/types';
import { backendFor, checkRoles, resolveRoles, type RolesConfig } from '../../../src/roles';
import { LlmChangeProposer, LlmModeClassifier, LlmResponder } from '../../../src/sim/llm';
import { TemplateChangeProposer, TemplateModeClassifier, TemplateResponder } from '../../../src/sim/template';
import { TemplateStrategyProposer } from '../../../src/baselines/proactive';
import { playJob, replayJob, transcriptOf, type EpisodeFixture } from '../../fixtures/llm/episode';
import p4gFixture from '../../fixtures/llm/episodes/p4g.replay.json';
import { RoleScriptBackend } from '../../fixtures/llm/scripted';
import { P4G_SCRIPT } from '../../fixtures/llm/scripts/p4g';
import { BackendError, PrivacyError } from '../../../src/errors';

const P4G = p4gFixture as unknown as EpisodeFixture;

describe('resolveRoles', () => {
  it('defaults to template mode everywhere', async () => {
    const roles = resolveRoles({});
    expect(roles.simRoles.modeClassifier).toBeInstanceOf(TemplateModeClassifier);
    expect(roles.simRoles.changeProposer).toBeInstanceOf(TemplateChangeProposer);
    expect(roles.simRoles.responder).toBeInstanceOf(TemplateResponder);
    expect(roles.realizer).toBeInstanceOf(TemplateRealizer);
    expect(roles.strategyProposer).toBeInstanceOf(TemplateStrategyProposer);
    expect(roles.usage().every((u) => u.backend === 'template' && u.calls === 0)).toBe(true);
    expect(roles.policy('esconv', 'llm').name).toBe('llm');
    expect(roles.policy('esconv', 'random').name).toBe('random');
    expect(roles.recordedFixture()).toBeNull();
  });

  it('takes a role’s own entry over its group’s, and the group’s over the default', () => {
    const config: RolesConfig = {
      default: { kind: 'template' },
      roles: { sim: { kind: 'replay' }, mode: { kind: 'template' }, actor: { kind: 'replay' } },
      fixtures: {},
    };
    expect(backendFor(config, 'mode').kind).toBe('template');
    expect(backendFor(config, 'proposer').kind).toBe('replay');
    expect(backendFor(config, 'judge').kind).toBe('template');
    const roles = resolveRoles(config);
    expect(roles.simRoles.modeClassifier).toBeInstanceOf(TemplateModeClassifier);
    expect(roles.simRoles.changeProposer).toBeInstanceOf(LlmChangeProposer);
    expect(roles.simRoles.responder).toBeInstanceOf(LlmResponder);
    expect(roles.realizer).toBeInstanceOf(LlmRealizer);
    expect(roles.argActor).toBeInstanceOf(LlmArgActor);
    expect(roles.predictor).toBeInstanceOf(LlmReversePredictor);
    expect(roles.policy('p4g', 'llm')).toBeInstanceOf(LlmPolicy);
    expect(roles.policy('p4g', 'arg')).toBeInstanceOf(ArgPolicy);
    expect(Object.fromEntries(roles.usage().map((u) => [u.role, u.backend]))).toMatchObject({
      mode: 'template',
      proposer: 'replay',
      judge: 'template',
      strategy: 'replay',
    });
  });

  it('refuses WebLLM outside a browser, remote servers without opt-in, and replay without fixtures', () => {
    expect(() => resolveRoles({ roles: { judge: { kind: 'webllm', model: 'x-q4f32_1-MLC' } } })).toThrow(
      BackendError,
    );
    expect(() =>
      resolveRoles({ default: { kind: 'openai', model: 'm', baseUrl: 'http://10.0.0.2:8000/v1' } }),
    ).toThrow(PrivacyError);
    expect(
      resolveRoles({
        default: { kind: 'openai', model: 'm', baseUrl: 'http://10.0.0.2:8000/v1', allowRemote: true },
      }).simRoles.modeClassifier,
    ).toBeInstanceOf(LlmModeClassifier);
    expect(() => resolveRoles({ default: { kind: 'replay' } })).toThrow(/fixtures/);
    expect(() => resolveRoles({ default: { kind: 'openai', model: 'm' } })).toThrow(/baseUrl/);
  });

  it('records a fixture in record mode that replays the same episode without the script', async () => {
    const job = replayJob(P4G);
    const inner = new RoleScriptBackend(P4G_SCRIPT.answers);
    const recorded = await playJob(
      { ...job, language: { default: { kind: 'replay' }, fixtures: {} } },
      { runtime: { record: inner } },
    );
    expect(inner.remaining()).toEqual({});
    expect(recorded.fixture).toEqual(P4G.fixture);
    const replayed = await playJob({
      ...job,
      language: { ...job.language, fixtures: recorded.fixture },
    });
    expect(replayed.records.map(transcriptOf)).toEqual(P4G.expected.transcripts);
  });
});

describe('every role on an OpenAI-compatible server on 127.0.0.1', () => {
  it('plays the P4G episode over HTTP, request by request', async () => {
    const script = new RoleScriptBackend(P4G_SCRIPT.answers);
    const bodies: ChatRequest[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as ChatRequest & { model: string };
        bodies.push(body);
        void script.complete(body).then((response) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: `c${bodies.length}`, object: 'chat.completion', ...response }));
        });
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as AddressInfo;
      const job = replayJob(P4G);
      const result = await playJob({
        ...job,
        language: {
          default: { kind: 'openai', model: 'local-test', baseUrl: `http://127.0.0.1:${port}/v1` },
        },
      });
      expect(result.records.map(transcriptOf)).toEqual(P4G.expected.transcripts);
      expect(bodies).toHaveLength(P4G.expected.episodeUsage[0]!.calls);
      expect(bodies.every((b) => (b as { model?: string }).model === 'local-test')).toBe(true);
      expect(bodies.every((b) => b.response_format?.type === 'json_schema')).toBe(true);
      expect(result.usage.find((u) => u.role === 'judge')!.backend).toBe(
        `openai:local-test@127.0.0.1:${port}`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});

describe('checkRoles', () => {
  /** The error a call throws (its class name, code and message), or null. */
  const thrown = (f: () => unknown): { name: string; code: unknown; message: string } | null => {
    try {
      f();
      return null;
    } catch (e) {
      const err = e as Error & { code?: unknown };
      return { name: err.name, code: err.code, message: err.message };
    }
  };

  it('refuses exactly what buildRoles refuses, with the same error, building no backend', () => {
    const local = { kind: 'openai' as const, model: 'm', baseUrl: 'http://127.0.0.1:1/v1' };
    const cases: { config: RolesConfig; refused: RegExp | null }[] = [
      { config: {}, refused: null },
      { config: { default: local }, refused: null },
      { config: { roles: { judge: { ...local, baseUrl: 'http://10.0.0.2/v1' } } }, refused: /non-loopback/ },
      {
        config: { roles: { judge: { ...local, baseUrl: 'http://10.0.0.2/v1', allowRemote: true } } },
        refused: null,
      },
      {
        config: { roles: { sim: { ...local, baseUrl: 'ftp://127.0.0.1/v1' } } },
        refused: /must be http\(s\)/,
      },
      {
        config: { roles: { strategy: { kind: 'webllm', model: 'x' } } },
        refused: /WebLLM runs only in a browser/,
      },
      {
        config: { default: { kind: 'wllama', model: 'https://h/m.gguf' } },
        refused: /runs only in a browser/,
      },
      { config: { default: { kind: 'llamacpp', model: 'm.gguf' } }, refused: /runs a GGUF file in Node/ },
      { config: { default: { kind: 'replay' }, fixtures: {} }, refused: null },
    ];
    for (const { config, refused } of cases) {
      const checked = thrown(() => checkRoles(config));
      expect(checked, JSON.stringify(config)).toEqual(thrown(() => resolveRoles(config)));
      if (refused) expect(checked?.message).toMatch(refused);
      else expect(checked).toBeNull();
    }
    // With a Node runtime, llamacpp passes the check without its backend being made.
    let made = 0;
    const runtime = {
      createLocalBackend: () => {
        made += 1;
        return new RoleScriptBackend({});
      },
    };
    checkRoles({ default: { kind: 'llamacpp', model: 'm.gguf' } }, runtime);
    expect(made).toBe(0);
    resolveRoles({ default: { kind: 'llamacpp', model: 'm.gguf' } }, runtime);
    expect(made).toBe(1);
  });
});
