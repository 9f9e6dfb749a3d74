/**
 * One Cog-Sim turn (docs/architecture.md "Turn pipeline", steps 1–10) with stub language roles, so that each
 * decision of the pipeline can be checked on its own: which modes touch the BDI records, the route rule,
 * rejected proposals, termination and the immutability of the input state.
 */
import { describe, expect, it } from 'vitest';
import {
  CogSim,
  goalCongruence,
  initialSimState,
  templateSimRoles,
  type MessageAssessment,
  type Mode,
  type Proposal,
  type ResponseInput,
  type SimRoles,
  type SimState,
} from '../../../src/sim';
import { getTask, type Seed } from '../../../src/tasks';
import { combinedJudgment, fittedAffectChange } from '../../../src/sim/simulator';
import { lastUserText } from '../../../src/sim/perception';
import { CHANGE_LIMITS } from '../../../src/sim/updater';
import { fittedMoodShift, fittedPerception } from '../../../src/sim/fitted';
import { extractFeatures } from '../../../src/text/features';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

const seed = DEFAULT_SEEDS.esconv[0] as Seed;
const task = getTask('esconv');

interface Stub {
  roles: SimRoles;
  judgments: { route: string; judgment: string }[];
  responses: ResponseInput[];
}

function stubRoles(mode: Mode, assessment: MessageAssessment, proposal: Proposal): Stub {
  const stub: Stub = { roles: undefined as unknown as SimRoles, judgments: [], responses: [] };
  stub.roles = {
    modeClassifier: { classify: async () => mode },
    changeProposer: {
      // Stands in for the template proposer: the simulator meets its judgment with the fitted reactions.
      fittedReactions: true,
      assess: async () => assessment,
      propose: async (_u, _v, route, judgment) => {
        stub.judgments.push({ route, judgment });
        return structuredClone(proposal);
      },
    },
    responder: {
      respond: async (input) => {
        stub.responses.push(input);
        return 'user reply';
      },
    },
  };
  return stub;
}

const assessment = (a: Partial<MessageAssessment> = {}): MessageAssessment => ({
  relevance: 0.5,
  argumentQuality: 0.5,
  cueStrength: 0.5,
  discrepancy: 'low',
  pressure: 'low',
  ...a,
});

const proposal = (p: Partial<Proposal> = {}): Proposal => ({
  changes: [{ id: 'b-cope', delta: 0.3 }],
  newRecords: [],
  claimTopics: [],
  appraisal: { CP: 0.2, FE: 0.1 },
  emotion: 'hope',
  plan: { stance: 'agree' },
  ...p,
});

const records = (s: SimState) => {
  const { beliefs, desires, intentions } = s.cognitive;
  return { beliefs, desires, intentions };
};

describe('CogSim.step', () => {
  it('keeps BDI records unchanged on Elicit and Social, and still moves affect (rates 0.4 and 0.25)', async () => {
    const state = initialSimState(seed, 30);
    const v0 = state.cognitive.affect.valence;
    const gc = goalCongruence(state.cognitive);
    const { CP, FE } = state.cognitive.appraisal;
    for (const [mode, rate] of [
      ['Elicit', 0.4],
      ['Social', 0.25],
    ] as const) {
      const stub = stubRoles(mode, assessment(), proposal());
      const { state: next, turn } = await new CogSim(task, stub.roles).step(state, seed.prefix, 'Okay.');
      expect(records(next)).toEqual(records(state));
      expect(stub.judgments).toEqual([]);
      expect(turn).toMatchObject({
        mode,
        route: null,
        judgment: null,
        pCentral: null,
        proposal: null,
        applied: [],
      });
      expect(next.cognitive.appraisal).toEqual({ GC: gc, CP, FE });
      // Plus the fitted affect change of the words (what people's reactions to such a turn were).
      // ESConv also moves by the fitted mood model (the user's last turn is the prefix's last user line).
      const nudge = fittedAffectChange(
        fittedPerception('Okay.', task.id, extractFeatures('Okay.')),
        task.id,
        fittedMoodShift(task.id, 'Okay.', lastUserText(seed.prefix)),
      );
      expect(next.cognitive.affect.valence).toBeCloseTo(v0 + rate * ((gc + CP + FE) / 3 - v0) + nudge, 6);
    }
  });

  it('reveals an unrevealed concern when asked (Elicit), once', async () => {
    const stub = stubRoles('Elicit', assessment(), proposal());
    const sim = new CogSim(task, stub.roles);
    const s1 = (await sim.step(initialSimState(seed, 30), seed.prefix, 'What is going on?')).state;
    const s2 = (await sim.step(s1, seed.prefix, 'What else?')).state;
    expect(s2.revealed).toEqual(seed.userPrivate.concerns.slice(0, 2));
    expect(stub.responses.map((r) => r.plan.reveal)).toEqual(seed.userPrivate.concerns.slice(0, 2));
  });

  it('applies an Influence proposal under the route chosen by p_C ≥ 0.5 in deterministic mode', async () => {
    const eta = seed.profile.eta_R;
    // Central weight eta · 1 · 1 against (1 − eta) · 0: p_C = 1.
    const central = stubRoles(
      'Influence',
      assessment({ relevance: 1, argumentQuality: 1, cueStrength: 0 }),
      proposal(),
    );
    const sim = new CogSim(task, central.roles, { routeSampling: 'deterministic' });
    const { state: next, turn } = await sim.step(initialSimState(seed, 30), seed.prefix, 'text');
    expect(turn.route).toBe('central');
    expect(turn.pCentral).toBe(1);
    // Low discrepancy (0.2) ≤ tau_A: this user accepts, met with what people did (the fitted judgment).
    const judgment = combinedJudgment(
      fittedPerception('text', task.id, extractFeatures('text')),
      task.id,
      'accept',
    );
    expect(turn.judgment).toBe(judgment);
    expect(judgment).not.toBe('reject');
    expect(central.judgments).toEqual([{ route: 'central', judgment }]);
    const before = seed.cognitive.beliefs.find((b) => b.id === 'b-cope')?.strength as number;
    expect(next.cognitive.beliefs.find((b) => b.id === 'b-cope')?.strength).toBeCloseTo(before + 0.3, 9);
    expect(turn.applied[0]).toMatchObject({ id: 'b-cope', proposed: 0.3 });
    expect(turn.rejected).toBeNull();

    // Peripheral: p_C = 0.
    const periph = stubRoles('Influence', assessment({ relevance: 0, cueStrength: 1 }), proposal());
    const t2 = (
      await new CogSim(task, periph.roles, { routeSampling: 'deterministic' }).step(
        initialSimState(seed, 30),
        seed.prefix,
        'text',
      )
    ).turn;
    expect(t2.route).toBe('peripheral');
    // Peripheral: the proposed 0.3 clipped to the belief limit of the turn's judgment (accept 0.3, non-commit 0.2).
    expect(t2.judgment).toBe(judgment);
    expect(t2.applied[0]?.applied).toBeCloseTo(Math.min(0.3, CHANGE_LIMITS.peripheral[judgment].belief), 9);
    expect(eta).toBeGreaterThan(0);
  });

  it('uses p_C as a Bernoulli probability in stochastic mode, from the state’s random stream', async () => {
    // p_C = 0.5: over 100 states with different random streams, about half the turns go central.
    const eta = seed.profile.eta_R;
    const a = assessment({ relevance: 1, argumentQuality: (1 - eta) / eta, cueStrength: 1 });
    const stub = stubRoles('Influence', a, proposal());
    const sim = new CogSim(task, stub.roles);
    let central = 0;
    for (let r = 0; r < 100; r++) {
      // Consecutive random seeds, as runEpisodes uses for repeats of a dialogue seed.
      const state = initialSimState(seed, 30, 1000 + r);
      const { turn } = await sim.step(state, seed.prefix, 'text');
      expect(turn.pCentral).toBeCloseTo(0.5, 12);
      if (turn.route === 'central') central++;
    }
    // Binomial(100, 0.5) lies in [30, 70] with probability > 0.9999.
    expect(central).toBeGreaterThanOrEqual(30);
    expect(central).toBeLessThanOrEqual(70);
  });

  it('reports a rejected proposal, keeps the records exactly, and ignores its appraisal and emotion', async () => {
    const state = initialSimState(seed, 30);
    const bad = proposal({ changes: [{ id: 'no-such-record', delta: 1 }], appraisal: { CP: 1, FE: 1 } });
    const stub = stubRoles('Influence', assessment(), bad);
    const { state: next, turn } = await new CogSim(task, stub.roles).step(state, seed.prefix, 'text');
    expect(turn.rejected).toMatch(/unknown record "no-such-record"/);
    expect(turn.applied).toEqual([]);
    expect(records(next)).toEqual(records(state));
    expect(next.cognitive.appraisal.CP).toBe(state.cognitive.appraisal.CP);
    expect(next.cognitive.appraisal.FE).toBe(state.cognitive.appraisal.FE);
    expect(next.cognitive.affect.category).not.toBe('hope');
    expect(stub.responses[0]?.plan).toEqual({ stance: 'hesitant' });
    expect(next.changeLog.at(-1)?.strength).toBe(0);
  });

  it('never mutates its input state, counts turns and ends at the horizon', async () => {
    const sim = new CogSim(task, stubRoles('Social', assessment(), proposal()).roles);
    const state = initialSimState(seed, 2);
    const copy = structuredClone(state);
    const r1 = await sim.step(state, seed.prefix, 'Okay.');
    expect(state).toEqual(copy);
    expect(r1.state).toMatchObject({ turn: 1, remaining: 1, ended: null });
    const r2 = await sim.step(r1.state, seed.prefix, 'Okay.');
    expect(r2.state).toMatchObject({ turn: 2, remaining: 0, ended: 'horizon' });
    expect(r2.turn.ended).toBe('horizon');
    await expect(sim.step(r2.state, seed.prefix, 'Okay.')).rejects.toThrow(/already ended \(horizon\)/);
  });

  it('in template mode, no turn mutates any earlier state (states are shared immutable values)', async () => {
    const utterances: Record<'esconv' | 'p4g' | 'cb', string[]> = {
      esconv: [
        'What happened?',
        'You are not alone, it will get better.',
        'Okay.',
        'You could try to write a plan.',
      ],
      p4g: [
        'Hi! How are you?',
        'Every dollar provides meals for children.',
        'Would you like to donate $1?',
        'Thanks.',
      ],
      cb: [
        'How old is it?',
        'Would you take $300?',
        'I have seen similar ones online for less.',
        'I can offer $320.',
      ],
    };
    for (const id of ['esconv', 'p4g', 'cb'] as const) {
      const s0 = DEFAULT_SEEDS[id][1] as Seed;
      const sim = new CogSim(getTask(id), templateSimRoles());
      const states: SimState[] = [initialSimState(s0, 30)];
      const snapshots = [JSON.stringify(states[0])];
      for (let i = 0; i < 12; i++) {
        const prev = states.at(-1) as SimState;
        if (prev.ended !== null) break;
        const text = utterances[id][i % 4] as string;
        const next = (await sim.step(prev, s0.prefix, text)).state;
        states.push(next);
        snapshots.push(JSON.stringify(next));
      }
      expect(states.length).toBeGreaterThan(3);
      states.forEach((st, i) => expect(JSON.stringify(st), `${id} state ${i}`).toBe(snapshots[i]));
    }
  });

  it('is deterministic in template mode: the same state and utterance give the same turn and next state', async () => {
    const sim = new CogSim(task, templateSimRoles());
    const state = initialSimState(seed, 30);
    const text = 'It sounds like you feel very alone with the placement, and anyone would feel that way.';
    const a = await sim.step(state, seed.prefix, text);
    const b = await sim.step(state, seed.prefix, text);
    expect(a).toEqual(b);
    expect(a.state.rng).not.toEqual(state.rng);
  });
});
