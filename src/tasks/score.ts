/** A success rule's access to the judge's scores (the task folders' `success.ts` read them through it). */
import { InputError } from '../errors';

/**
 * The judge score `field` that `task`'s success rule needs.
 * @throws InputError (SUCCESS_INPUT) when it is missing.
 */
export function needScore<T>(value: T | undefined, task: string, field: string): T {
  if (value === undefined)
    throw new InputError('SUCCESS_INPUT', `success of ${task} needs the judge score "${field}"`);
  return value;
}
