/**
 * Errors of the environment server. Every error a client can receive is a {@link ServerProtocolError} (or a
 * library error passed through with its own `code`), sent as `{ code, message }`: over WebSocket inside OpenEnv's
 * error frame `{ type: "error", data: { code, message } }`, over HTTP as the JSON body with its `status`.
 */
import { ConfigError, ServerProtocolError } from '../errors';
import { jsonTextReason } from '../io/json';

/**
 * `text`, the request body or WebSocket message named by `what`, is not JSON (`error`: what `JSON.parse` threw).
 * The message says where in the project's words (`Invalid JSON in the request body: unexpected character at column
 * 2`) and never quotes the text, as the parser's own message would. Code `INVALID_JSON` (HTTP 400).
 */
export function invalidJsonError(
  what: 'the request body' | 'the message',
  text: string,
  error: unknown,
): ServerProtocolError {
  // No `cause`: the parser's error quotes the text, and a cause may be logged or sent on.
  return new ServerProtocolError('INVALID_JSON', `Invalid JSON in ${what}: ${jsonTextReason(text, error)}`);
}

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
