/**
 * CraigslistBargain (He et al., 2018): the actor is the buyer, the simulated user the seller. Offers,
 * acceptance and quitting are task events, separate from the strategy labels. Terminal utility (CSTPO protocol)
 * with a deal at price p: clip((p_seller - p) / (p_seller - p_buyer), 0, 1); no deal: 0.
 */

import { labelMap } from '../labels';
import type { TaskSpec } from '../types';
import { InputError } from '../../errors';

export const CB_STRATEGIES = ['propose price', 'inquire', 'inform', 'stance', 'social', 'other'] as const;

/** The 11 raw dialogue acts of CraigslistBargain mapped onto the 6 merged acts. */
const RAW: Record<string, (typeof CB_STRATEGIES)[number]> = {
  propose: 'propose price',
  counter: 'propose price',
  inquire: 'inquire',
  inform: 'inform',
  confirm: 'inform',
  affirm: 'inform',
  'counter-noprice': 'stance',
  agree: 'stance',
  disagree: 'stance',
  deny: 'stance',
  greet: 'social',
};

export const CB_SPEC: TaskSpec = {
  id: 'cb',
  title: 'CraigslistBargain price negotiation',
  actorRole: 'buyer',
  userRole: 'seller',
  strategies: CB_STRATEGIES,
  rawLabelMap: labelMap({ ...RAW, ...Object.fromEntries(CB_STRATEGIES.map((s) => [s, s])) }),
  topics: {
    condition: [
      'scratch',
      'worn',
      'used',
      'old',
      'damage',
      'dent',
      'missing',
      'condition',
      'wear',
      'repair',
      'stain',
    ],
    market: [
      'online',
      'elsewhere',
      'cheaper',
      'market',
      'other listings',
      'going rate',
      'new one',
      'seen it for',
      'similar',
    ],
    commitment: [
      'cash',
      'today',
      'pick it up',
      'right away',
      'ready to buy',
      'tonight',
      'this afternoon',
      'no haggling after',
    ],
    rapport: ['hi', 'hello', 'thanks', 'great item', 'looks nice', 'appreciate', 'nice'],
    price: ['$', 'dollars', 'price', 'offer', 'pay'],
  },
  horizon: 30,
  ppdppHorizon: 10,
};

/**
 * Terminal utility of a CraigslistBargain deal under the CSTPO protocol, in [0, 1]: 1 at the buyer's target,
 * 0 at the list price; `dealPrice` null (no deal) gives 0.
 * @throws InputError (TASK_INPUT_INVALID) when the list price is not above the target price.
 */
export function cbUtility(dealPrice: number | null, listPrice: number, targetPrice: number): number {
  if (!(listPrice > targetPrice))
    throw new InputError('TASK_INPUT_INVALID', `list price ${listPrice} must exceed target ${targetPrice}`);
  if (dealPrice === null) return 0;
  return Math.min(1, Math.max(0, (listPrice - dealPrice) / (listPrice - targetPrice)));
}
