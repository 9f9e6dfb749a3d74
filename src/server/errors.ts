/**
 * Errors of the environment server. Every error a client can receive is a {@link ServerProtocolError} (or a
 * library error passed through with its own `code`), sent as `{ code, message }`: over WebSocket inside OpenEnv's
 * error frame `{ type: "error", data: { code, message } }`, over HTTP as the JSON body with its `status`.
 */
import { ConfigError, ServerProtocolError } from '../errors';

/**
 * A message or body that is not of the protocol's shape; the message names the field and `issues` holds the
 * schema's complaints, one per field (zod issues: path and message). Code `VALIDATION_ERROR` (HTTP 422).
 */
export function badMessageError(
  message: string,
  issues: { path: (string | number)[]; message: string }[] = [],
): ServerProtocolError {
  return new ServerProtocolError('VALIDATION_ERROR', message, { issues });
}

/**
 * The port asked for (`port` on `host`) is taken by another process; the message says to pick another. Code
 * `SERVER_PORT_IN_USE`.
 */
export function portInUseError(host: string, port: number, options?: { cause?: unknown }): ConfigError {
  return new ConfigError(
    'SERVER_PORT_IN_USE',
    `port ${port} on ${host} is in use: pick another --port (or stop what listens there)`,
    { ...options, option: 'port', expected: `a free port on ${host}`, got: port },
  );
}
