/**
 * ESConv emotional support (Liu et al., 2021): the actor is the supporter, the simulated user a help-seeker.
 * Terminal utility under the CSTPO protocol: (E + A) / 8 where a judge scores emotion/hope improvement E and
 * the feasibility of an action plan A, each 0–4 (docs/architecture.md "Tasks, judges and rewards").
 */

import { labelMap } from '../labels';
import type { TaskSpec } from '../types';
import { InputError } from '../../errors';

export const ESCONV_STRATEGIES = [
  'Question',
  'Restatement or Paraphrasing',
  'Reflection of feelings',
  'Self-disclosure',
  'Affirmation and Reassurance',
  'Providing Suggestions',
  'Information',
  'Others',
] as const;

export const ESCONV_SPEC: TaskSpec = {
  id: 'esconv',
  title: 'ESConv emotional support',
  actorRole: 'supporter',
  userRole: 'help-seeker',
  strategies: ESCONV_STRATEGIES,
  rawLabelMap: labelMap(Object.fromEntries(ESCONV_STRATEGIES.map((s) => [s, s]))),
  topics: {
    rapport: [
      'i hear',
      'sounds like',
      'sounds really',
      'i understand',
      'that must',
      'makes sense',
      "i'm sorry",
      'i am sorry',
      'here for you',
      'listening',
      'with you',
    ],
    alone: [
      'not alone',
      'many people',
      'lots of people',
      'others',
      'common',
      'i went through',
      'i have been',
      "i've been",
      'me too',
      'happened to me',
    ],
    hope: [
      'get better',
      'can improve',
      'hope',
      'brighter',
      'temporary',
      'will pass',
      'in time',
      'turn around',
      'recover',
    ],
    blame: [
      'not your fault',
      'anyone would',
      'normal to feel',
      'understandable',
      'blame',
      'valid',
      'be kind to yourself',
    ],
    coping: [
      'you can',
      'strength',
      "you've already",
      'you have already',
      'capable',
      'manage',
      'handled',
      'proud of you',
      'strong',
    ],
    action: [
      'try',
      'step',
      'plan',
      'talk to',
      'reach out',
      'schedule',
      'write down',
      'counsel',
      'exercise',
      'list',
      'call',
      'set aside',
    ],
  },
  horizon: 30,
  ppdppHorizon: 8,
};

/**
 * Emotion types of ESConv mapped to affect categories (docs/architecture.md "Seeds and initial states");
 * unknown types map to neutral.
 */
export const ESCONV_EMOTION_TO_AFFECT: Readonly<
  Record<string, 'anxiety' | 'sadness' | 'anger' | 'frustration'>
> = {
  anxiety: 'anxiety',
  nervousness: 'anxiety',
  fear: 'anxiety',
  depression: 'sadness',
  sadness: 'sadness',
  anger: 'anger',
  disgust: 'frustration',
  shame: 'frustration',
};

/**
 * Terminal utility of ESConv under the CSTPO protocol.
 * @param E emotion/hope improvement in [0, 4]; @param A action-plan feasibility in [0, 4]. Returns a value in [0, 1].
 * @throws InputError (TASK_INPUT_INVALID) when a score is outside [0, 4].
 */
export function esconvUtility(E: number, A: number): number {
  for (const v of [E, A])
    if (!(v >= 0 && v <= 4))
      throw new InputError('TASK_INPUT_INVALID', `ESConv judge score ${v} outside [0, 4]`);
  return (E + A) / 8;
}
