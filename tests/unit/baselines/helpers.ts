/** Observation builders for the baseline tests. */
import type { Observation } from '../../../src/env/env';
import type { TaskEvent } from '../../../src/sim/types';
import type { TaskId, Turn } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

/** `['a', text, label?]` is an actor turn, `['u', text]` a user turn. */
export type Line = ['a', string, string?] | ['u', string];

export function observe(task: TaskId, lines: Line[], extra: Partial<Observation> = {}): Observation {
  const history: Turn[] = lines.map((l) =>
    l[0] === 'a'
      ? { speaker: 'actor', text: l[1], ...(l[2] ? { strategy: l[2] } : {}) }
      : { speaker: 'user', text: l[1] },
  );
  return {
    task,
    seedId: 'test',
    actorView: structuredClone(defaultSeeds(task)[0]!.actorView),
    history,
    events: [],
    turn: lines.filter((l) => l[0] === 'a').length,
    remaining: 10,
    ...extra,
  };
}

/** A seller counter-offer event. */
export function counter(price: number, turn = 0): TaskEvent {
  return { turn, by: 'user', type: 'offer', price };
}
