/**
 * Node side of the policy catalogue: checks policy names on the command line and loads what `principles:FILE`
 * and `cstpo:FOLDER` name (a memory file; a train run folder's configuration and latest actor weights) as the
 * plain data the jobs take (src/policies `PolicyResources`).
 */
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readTextFile } from '../src/node';
import { checkPolicy, policyResource, type PolicyResources } from '../src/entries/policies';
import { backendFor, type RolesConfig } from '../src/entries/models';
import type { TaskId } from '../src/entries/simulator';
import { UsageError } from './options';
import { CheckpointError, hasCode, LabError, PathError } from '../src/entries/errors';

/**
 * Checks a policy name before any work: known to the catalogue, runnable with these backends, and for
 * `principles:` / `cstpo:` an existing file / folder.
 * @throws UsageError naming the policy and the valid names.
 */
export function checkPolicyArg(task: TaskId, name: string, language: RolesConfig): void {
  const resource = policyResource(name);
  if (resource && resource.ref !== '') {
    if (!existsSync(resource.ref))
      throw new UsageError(
        `--policy ${name}: no such ${resource.kind === 'principles' ? 'memory file' : 'run folder'}: ${resource.ref}`,
      );
    return;
  }
  try {
    checkPolicy(task, name, { llm: backendFor(language, 'strategy').kind !== 'template' });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Reads the memory files and run folders that `names` refer to.
 * @throws UsageError when a run folder is a file, holds no finished run or another trainer's run, or a memory file
 *   cannot be read (a folder, not UTF-8 with the line and byte, …); PathError naming a run file that is not
 *   UTF-8.
 */
/**
 * A file given as a memory file that is another of the lab's files (a trajectory file from `simulate --out`, an
 * evaluation's episodes), told as such instead of as a damaged memory. Code `NOT_A_MEMORY_FILE`.
 */
export class NotAMemoryFileError extends LabError {
  override name = 'NotAMemoryFileError';
  override readonly code = 'NOT_A_MEMORY_FILE';
}

/**
 * Reads a memory file (`principles build --out`) as text.
 * @throws NotAMemoryFileError when it is a trajectory file (JSON lines of episodes: `seedId` and `turns`);
 *   PathError / PathError (PATH_KIND_MISMATCH) from `readTextFile`.
 */
export async function readMemoryText(path: string): Promise<string> {
  const text = await readTextFile(path, { file: 'memory file' });
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')).trim();
  let head: unknown = null;
  try {
    head = first !== '' && first !== text.trim() ? JSON.parse(first) : null;
  } catch {
    head = null;
  }
  if (head !== null && typeof head === 'object' && 'seedId' in head && 'turns' in head)
    throw new NotAMemoryFileError(
      `${path} is not a memory file (it looks like a trajectory file: one episode a line, as simulate --out ` +
        'writes); give a file written by npm run principles -- build --out',
    );
  return text;
}

/**
 * The stored resources the policies `names` need (principle memory files, trained CSTPO run folders).
 * @param notice told in one line when a run folder was copied or renamed (loaded under its folder's name).
 */
export async function loadPolicyResources(
  names: readonly string[],
  notice?: (line: string) => void,
): Promise<PolicyResources> {
  const out: PolicyResources = {};
  for (const name of names) {
    const resource = policyResource(name);
    if (!resource) continue;
    if (resource.kind === 'principles') {
      let text: string;
      try {
        text = await readMemoryText(resource.ref);
      } catch (err) {
        if (hasCode(err, PathError, 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH'))
          throw new UsageError(`--policy ${name}: ${err.message}`);
        throw err;
      }
      out.principles = { ...out.principles, [resource.ref]: text };
    } else {
      // tfjs comes with the run store: loaded only when a trained run is named, so template runs do not pay for it.
      const { FileRunStore } = await import('../src/entries/training-node');
      const folder = resource.ref.replace(/\/+$/, '');
      let stored;
      try {
        stored = await new FileRunStore(dirname(folder), notice ? { notice } : {}).load(basename(folder));
      } catch (err) {
        if (
          hasCode(err, PathError, 'PATH_KIND_MISMATCH') ||
          hasCode(err, CheckpointError, 'RUN_KIND_MISMATCH')
        )
          throw new UsageError(`--policy ${name}: ${err.message}`);
        throw err;
      }
      if (!stored)
        throw new UsageError(`--policy ${name}: ${resource.ref} holds no train run (run.json, latest.json)`);
      out.cstpo = { ...out.cstpo, [resource.ref]: { config: stored.run.config, actor: stored.latest.actor } };
    }
  }
  return out;
}
