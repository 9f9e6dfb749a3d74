/**
 * Prompt-only user simulators (CSTPO paper §4.2, simulator comparators "Persona" and "Persona-Resist"): the
 * user is played by the language model from a persona prompt alone — no cognitive state. The prompt gives the
 * persona, what the user privately knows (situation, concerns, barriers, reservation price) and the dialogue.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../llm/types';
import type { SimState } from '../../sim/types';
import { dialogueText } from '../../sim/llm/prompts/common';
import { getTask } from '../../tasks';
import type { Turn } from '../../tasks/seed';

/** The reply schema of a prompt-only simulator. */
export const PersonaReply = z.object({ reply: z.string().trim().min(1).describe("the user's next message") });

/** Persona variants: plain, or resistant (hard to move, pushes back). */
export type PersonaVariant = 'persona' | 'persona-resist';

const RESIST =
  'You are hard to move: you are skeptical, you push back on pressure and weak arguments, and you change ' +
  'your mind only slowly and only for good reasons.';

function privateView(state: Readonly<SimState>): string {
  const p = state.private;
  const lines: string[] = [];
  if (p.situation) lines.push(`Your situation: ${p.situation}`);
  if (p.emotionType) lines.push(`You feel: ${p.emotionType}.`);
  if (p.concerns.length > 0) lines.push(`What is on your mind: ${p.concerns.join(', ')}.`);
  if (p.barriers && p.barriers.length > 0) lines.push(`What holds you back: ${p.barriers.join(', ')}.`);
  if (p.itemDescription) lines.push(`You are selling: ${p.itemDescription}`);
  if (p.listPrice !== undefined) lines.push(`Your listed price: $${p.listPrice}.`);
  if (p.reservationPrice !== undefined) lines.push(`You will not sell below $${p.reservationPrice}.`);
  return lines.join('\n');
}

/** Messages asking the persona for its next reply to `utterance`. */
export function personaMessages(
  state: Readonly<SimState>,
  history: readonly Turn[],
  utterance: string,
  variant: PersonaVariant,
): ChatMessage[] {
  const task = getTask(state.task);
  const dialogue = dialogueText(state.task, [...history, { speaker: 'actor', text: utterance }]);
  return [
    {
      role: 'system',
      content:
        `You play the ${task.userRole} in a conversation with a ${task.actorRole}. Stay in character.\n` +
        `Persona: ${state.profile.persona}\n${privateView(state)}` +
        (variant === 'persona-resist' ? `\n${RESIST}` : '') +
        '\nReply in one to three sentences.',
    },
    {
      role: 'user',
      content: `Conversation so far:\n${dialogue}\n\nWrite your next reply as the ${task.userRole}.`,
    },
  ];
}
