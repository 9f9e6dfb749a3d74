/**
 * Checkpoint tokens: an environment checkpoint (src/env `EnvCheckpoint`, which holds the simulator's hidden state)
 * sealed so that a client can hold it, send it back and fork from it, but neither read nor forge it: deflated
 * JSON encrypted and authenticated with AES-256-GCM under the server's key. All worker processes of one server
 * share the key, so a token restores on any of them; a restarted server has a new key, and its old tokens are
 * refused (`CHECKPOINT_INVALID`).
 *
 * Token: base64url of `version byte (1) | 12-byte IV | 16-byte GCM tag | ciphertext`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ServerProtocolError } from '../errors';

const TOKEN_VERSION = 1;
/** Largest inflated checkpoint accepted (a token cannot expand into more memory than this). */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** A new random 32-byte sealing key. */
export function newSealKey(): Buffer {
  return randomBytes(32);
}

/** Seals a JSON-safe value into a token. */
export function seal(key: Buffer, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(deflateRawSync(JSON.stringify(value))), cipher.final()]);
  return Buffer.concat([Buffer.from([TOKEN_VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * Opens a token sealed with `key`.
 * @throws ServerProtocolError (CHECKPOINT_INVALID) when the token is malformed, of another version, or not sealed with this key.
 */
export function unseal(key: Buffer, token: string): unknown {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length < 29 || raw[0] !== TOKEN_VERSION)
    throw new ServerProtocolError('CHECKPOINT_INVALID', 'not a checkpoint token of this server');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 13));
    decipher.setAuthTag(raw.subarray(13, 29));
    const deflated = Buffer.concat([decipher.update(raw.subarray(29)), decipher.final()]);
    return JSON.parse(inflateRawSync(deflated, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8'));
  } catch {
    throw new ServerProtocolError(
      'CHECKPOINT_INVALID',
      'checkpoint token refused: damaged, or issued by another server (or before a restart)',
    );
  }
}
