/**
 * Errors of the environment server. Every error a client can receive is one of these (or a library
 * error passed through with its own `code`), sent as `{ code, message }`: over WebSocket inside OpenEnv's error
 * frame `{ type: "error", data: { code, message } }`, over HTTP as the JSON body with the `status` below.
 */
import { LabError } from '../errors';

/** Base class of the server's errors: a stable `code` and the HTTP status it is answered with. */
export class ServerError extends LabError {
  override name: string = 'ServerError';
  override readonly code: string = 'SERVER_ERROR';
  /** HTTP status of the reply (WebSocket replies carry only the code). */
  readonly status: number = 500;
}

/** A message or body that is not JSON, or not of the protocol's shape; the message names the field. */
export class BadMessageError extends ServerError {
  override name = 'BadMessageError';
  override readonly code: string = 'VALIDATION_ERROR';
  override readonly status: number = 422;
  constructor(
    message: string,
    /** The schema's complaints, one per field (zod issues: path and message). */
    readonly issues: { path: (string | number)[]; message: string }[] = [],
  ) {
    super(message);
  }
}

/** A body that is not JSON (OpenEnv's `INVALID_JSON`). */
export class InvalidJsonError extends ServerError {
  override name = 'InvalidJsonError';
  override readonly code = 'INVALID_JSON';
  override readonly status = 400;
}

/** A WebSocket message of a type the protocol does not have (OpenEnv's `UNKNOWN_TYPE`). */
export class UnknownTypeError extends ServerError {
  override name = 'UnknownTypeError';
  override readonly code = 'UNKNOWN_TYPE';
  override readonly status = 400;
}

/** The maximum number of sessions is open (OpenEnv's `CAPACITY_REACHED`). */
export class CapacityError extends ServerError {
  override name = 'CapacityError';
  override readonly code = 'CAPACITY_REACHED';
  override readonly status = 503;
}

/** The client asked for another protocol or simulator version than the server's; the message names both. */
export class VersionMismatchError extends ServerError {
  override name = 'VersionMismatchError';
  override readonly code = 'VERSION_MISMATCH';
  override readonly status = 409;
}

/** A missing or wrong token (the message never repeats what was sent). */
export class UnauthorizedError extends ServerError {
  override name = 'UnauthorizedError';
  override readonly code = 'UNAUTHORIZED';
  override readonly status = 401;
}

/** The critic scope was asked for on a server started without `--allow-critic`. */
export class ScopeForbiddenError extends ServerError {
  override name = 'ScopeForbiddenError';
  override readonly code = 'SCOPE_FORBIDDEN';
  override readonly status = 403;
}

/** A step, state or checkpoint before `reset`, or a step after the episode ended. */
export class SessionStateError extends ServerError {
  override name = 'SessionStateError';
  override readonly code = 'SESSION_ERROR';
  override readonly status = 409;
}

/** A checkpoint token that this server did not issue, was damaged, or belongs to another task or protocol. */
export class CheckpointTokenError extends ServerError {
  override name = 'CheckpointTokenError';
  override readonly code = 'CHECKPOINT_INVALID';
  override readonly status = 400;
}

/** An unknown task or seed id, or a task the server was not started with. */
export class UnknownSeedError extends ServerError {
  override name = 'UnknownSeedError';
  override readonly code = 'UNKNOWN_SEED';
  override readonly status = 404;
}

/** The server is shutting down: in-flight steps finish, new ones are refused. */
export class ShuttingDownError extends ServerError {
  override name = 'ShuttingDownError';
  override readonly code = 'SHUTTING_DOWN';
  override readonly status = 503;
}

/** A body over the size limit. */
export class PayloadTooLargeError extends ServerError {
  override name = 'PayloadTooLargeError';
  override readonly code = 'PAYLOAD_TOO_LARGE';
  override readonly status = 413;
}

/** No such route (or method). */
export class NotFoundError extends ServerError {
  override name = 'NotFoundError';
  override readonly code = 'NOT_FOUND';
  override readonly status = 404;
}

/** A server option out of range (a non-loopback bind without a token, a bad limit); the message names it. */
export class ServerOptionError extends ServerError {
  override name = 'ServerOptionError';
  override readonly code = 'SERVER_OPTION_INVALID';
}
