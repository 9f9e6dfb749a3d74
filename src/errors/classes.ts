/**
 * The library's error classes, one per thing the user must do (docs/architecture.md "Errors"). Every class takes
 * `(code, message, details)`: `code` is one of the class's stable codes (the contract a caller may rely on; the
 * union type of each class lists them), `message` says what is wrong and what to do, and `details` holds the
 * structured fields (`option`, `path`, `line`, `expected`, …) beside `cause` and the settings the message names.
 * Folders that build a message from parts keep a small builder function beside their code (e.g.
 * `fileDamagedError(path, reason, line)` in src/io/errors.ts), which returns one of these classes.
 */
import { LabError, type LabErrorOptions } from './base';

/** Codes of {@link ConfigError}. */
export type ConfigErrorCode =
  | 'JOB_CONFIG_INVALID'
  | 'ARG_PARSE'
  | 'ARG_OPTION_INVALID'
  | 'AGENT_OPTION_INVALID'
  | 'AGENT_STRATEGY_UNKNOWN'
  | 'ACTOR_OPTION_INVALID'
  | 'DATA_OPTION_INVALID'
  | 'EMBED_OPTION_INVALID'
  | 'EVAL_CONFIG_INVALID'
  | 'FEATURE_OPTION_INVALID'
  | 'LLM_CONTEXT_TOO_SMALL'
  | 'MEMORY_OPTION_INVALID'
  | 'POOL_OPTION_INVALID'
  | 'PPDPP_OPTION_INVALID'
  | 'RL_OPTION_INVALID'
  | 'RL_RUN_ID_INVALID'
  | 'RNG_INVALID_ARGUMENT'
  | 'SEEDING_INVALID_ARGUMENT'
  | 'SEED_SET_UNKNOWN'
  | 'SERVER_OPTION_INVALID'
  | 'SERVER_PORT_IN_USE'
  | 'TASK_UNKNOWN';

/** One failing field of a configuration: `path`, its dotted key (empty for the whole object), and what is wrong. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/**
 * An option, argument or configuration the user gave cannot be used: out of range, unknown, contradicting
 * another. Fix the option. `option` names it (as a configuration key) and `expected` / `got` say what it should be
 * and what it was, when the thrower knows; a job configuration that fails its schema lists every failing field in
 * `issues` (see {@link ConfigError.fromIssues}).
 */
export class ConfigError extends LabError {
  override name = 'ConfigError';
  override readonly code: ConfigErrorCode;
  /** The option at fault, as a configuration key (`port`, `contextSize`), when one is. */
  readonly option: string | undefined;
  /** What the option should be, in words (`an integer ≥ 1`), when known. */
  readonly expected: string | undefined;
  /** The value given, when known. */
  readonly got: unknown;
  /** The job whose configuration failed (`simulate`, `train`, …), when the error lists {@link issues}. */
  readonly job: string;
  /** Each field that fails, in the schema's order; empty when the message is a sentence about the whole job. */
  readonly issues: readonly ConfigIssue[];

  constructor(
    code: ConfigErrorCode,
    message: string,
    details: LabErrorOptions & {
      option?: string;
      expected?: string;
      got?: unknown;
      job?: string;
      issues?: readonly ConfigIssue[];
    } = {},
  ) {
    const issues = details.issues ?? [];
    const job = details.job ?? '';
    super(message, {
      ...details,
      ...(issues.length > 0 && {
        settings: issues.map((i) => i.path).filter(Boolean),
        render: (spell) => configIssuesMessage(job, issues, spell),
      }),
    });
    this.code = code;
    this.option = details.option;
    this.expected = details.expected;
    this.got = details.got;
    this.job = job;
    this.issues = issues;
  }

  /** The error of `job` for `issues`: `job: field: what is wrong; field: …` (`config` for the whole object). */
  static fromIssues(job: string, issues: readonly ConfigIssue[]): ConfigError {
    return new ConfigError(
      'JOB_CONFIG_INVALID',
      configIssuesMessage(job, issues, (field) => field),
      {
        job,
        issues,
      },
    );
  }
}

function configIssuesMessage(
  job: string,
  issues: readonly ConfigIssue[],
  spell: (s: string) => string,
): string {
  return `${job}: ${issues.map((i) => `${i.path ? spell(i.path) : 'config'}: ${i.message}`).join('; ')}`;
}

/** Codes of {@link PolicySpecError}. */
export type PolicySpecErrorCode = 'POLICY_SPEC_INVALID' | 'POLICY_UNKNOWN' | 'POLICY_UNAVAILABLE';

/**
 * A policy name that cannot be used as given: `POLICY_UNKNOWN` (a name the catalogue does not know, or a `fixed:`
 * label that is not the task's; the message lists the valid names) or `POLICY_UNAVAILABLE` (a known policy that
 * cannot run in this configuration: no language backend, no trained planner, a memory of another task). Choose
 * another policy or supply what it needs. `policy` is the name given, `known` the name patterns the policy
 * catalogue accepts (`src/policies`), so a caller can offer the valid names without reading the message.
 */
export class PolicySpecError extends LabError {
  override name = 'PolicySpecError';
  override readonly code: PolicySpecErrorCode;
  /** The policy name as given. */
  readonly policy: string;
  /** The name patterns the catalogue accepts (`random`, `fixed:<label>`, …). */
  readonly known: readonly string[];

  constructor(
    code: PolicySpecErrorCode,
    message: string,
    details: LabErrorOptions & { policy: string; known: readonly string[] },
  ) {
    super(message, details);
    this.code = code;
    this.policy = details.policy;
    this.known = details.known;
  }
}

/** Codes of {@link InputError}. */
export type InputErrorCode =
  | 'DOWNLOAD_UNAVAILABLE'
  | 'ENV_ACTION_INVALID'
  | 'ENV_SEED_MISMATCH'
  | 'EVAL_INPUT_INVALID'
  | 'EVAL_STRATEGY_UNMAPPED'
  | 'FIT_INPUT_INVALID'
  | 'GRPO_INPUT_INVALID'
  | 'JUDGE_INPUT_INVALID'
  | 'LLM_INVALID_REQUEST'
  | 'MEMORY_CONSTRUCTION_INVALID'
  | 'MEMORY_INPUT_INVALID'
  | 'MEMORY_TASK_MISMATCH'
  | 'RL_INPUT_INVALID'
  | 'STATS_INPUT_INVALID'
  | 'SUCCESS_INPUT'
  | 'TASK_INPUT_INVALID'
  | 'VALIDITY_INPUT';

/**
 * A value passed to a library function cannot be used (an empty sample, a score out of range, a seed of another
 * task, a request that breaks the backend contract). Fix the call. `expected` and `got` say what the value should
 * be and what it was, when the thrower knows.
 */
export class InputError extends LabError {
  override name = 'InputError';
  override readonly code: InputErrorCode;
  /** What the value should be, in words, when known. */
  readonly expected: string | undefined;
  /** The value given, when known. */
  readonly got: unknown;

  constructor(
    code: InputErrorCode,
    message: string,
    details: LabErrorOptions & { expected?: string; got?: unknown } = {},
  ) {
    super(message, details);
    this.code = code;
    this.expected = details.expected;
    this.got = details.got;
  }
}

/** Codes of {@link StateUpdateRejectedError}. */
export type StateUpdateRejectedCode =
  'SIM_PROPOSAL_REJECTED' | 'SIM_DIALOGUE_ENDED' | 'ENV_STATE_INVALID' | 'WRITER_CLOSED';

/**
 * An object refused a call that would change its state: the simulator's rules reject a proposed state update
 * (`SIM_PROPOSAL_REJECTED`, `reason` says which rule), the dialogue has ended, `step` came before `reset`, a
 * writer was used after `close()`. Nothing was changed; call in the right order (or fix the proposal).
 */
export class StateUpdateRejectedError extends LabError {
  override name = 'StateUpdateRejectedError';
  override readonly code: StateUpdateRejectedCode;
  /** Why the update was refused, without the prefix of the message, when the message has one. */
  readonly reason: string | undefined;
  /** The writer's output path (`WRITER_CLOSED`). */
  readonly path: string | undefined;

  constructor(
    code: StateUpdateRejectedCode,
    message: string,
    details: LabErrorOptions & { reason?: string; path?: string } = {},
  ) {
    super(message, details);
    this.code = code;
    this.reason = details.reason;
    this.path = details.path;
  }
}

/** Codes of {@link RoleOutputError}. */
export type RoleOutputErrorCode =
  'LLM_STRUCTURED_OUTPUT_INVALID' | 'LLM_ROLE_OUTPUT_INVALID' | 'REALIZER_EMPTY';

/**
 * A language role's answers were unusable: no answer passed JSON parsing and schema validation within the allowed
 * attempts, or a realizer produced no utterance. Use a stronger model, more attempts or a template form.
 * `rawAnswers` holds every answer in order (one per attempt), `validationErrors` the matching reasons and
 * `validationError` the last; `role` and its schema `answerName` are set when the call was a role's.
 */
export class RoleOutputError extends LabError {
  override name = 'RoleOutputError';
  override readonly code: RoleOutputErrorCode;
  /** The role whose answers failed (`strategy`, `realizer`, …), when known. */
  readonly role: string | undefined;
  /** The schema name of the role's answer, when known. */
  readonly answerName: string | undefined;
  readonly rawAnswers: readonly string[];
  readonly validationErrors: readonly string[];
  /** The last of {@link validationErrors} (`no answer` when there is none). */
  readonly validationError: string;

  constructor(
    code: RoleOutputErrorCode,
    message: string,
    details: LabErrorOptions & {
      role?: string;
      answerName?: string;
      rawAnswers?: readonly string[];
      validationErrors?: readonly string[];
    } = {},
  ) {
    super(message, details);
    this.code = code;
    this.role = details.role;
    this.answerName = details.answerName;
    this.rawAnswers = details.rawAnswers ?? [];
    this.validationErrors = details.validationErrors ?? [];
    this.validationError = this.validationErrors[this.validationErrors.length - 1] ?? 'no answer';
  }

  /** How many answers were tried. */
  get attempts(): number {
    return this.rawAnswers.length;
  }
}

/** Codes of {@link BackendError}. */
export type BackendErrorCode =
  | 'GPU_NO_BACKEND'
  | 'LLM_ANSWER_TOO_LARGE'
  | 'LLM_BACKEND_UNAVAILABLE'
  | 'LLM_DEVICE_LOST'
  | 'LLM_GENERATION_FAILED'
  | 'LLM_HTTP_ERROR'
  | 'LLM_MALFORMED_RESPONSE'
  | 'LLM_PACKAGE_MISSING'
  | 'LLM_WORKER_CRASHED';

/**
 * A compute backend failed or cannot run here: no WebGPU adapter or tfjs backend, a missing optional package, a
 * server that answered with an error status or not with a chat completion, a lost GPU device, a crashed engine
 * worker. Check the backend (or pick another); the message names what is missing and the alternatives. `status`,
 * `url` and `body` describe an HTTP answer; `packageName` the package to install; `tried` the tfjs backends tried.
 */
export class BackendError extends LabError {
  override name = 'BackendError';
  override readonly code: BackendErrorCode;
  /** HTTP status of the answer (`LLM_HTTP_ERROR`). */
  readonly status: number | undefined;
  /** The URL that answered (or the source of an answer that grew too large). */
  readonly url: string | undefined;
  /** The start of the response body (≤ 500 characters). */
  readonly body: string | undefined;
  /** The optional package to install (`LLM_PACKAGE_MISSING`). */
  readonly packageName: string | undefined;
  /** Every tfjs backend tried, with why it failed (`GPU_NO_BACKEND`). */
  readonly tried: readonly { name: string; reason?: string | undefined }[];

  constructor(
    code: BackendErrorCode,
    message: string,
    details: LabErrorOptions & {
      status?: number;
      url?: string;
      body?: string;
      packageName?: string;
      tried?: readonly { name: string; reason?: string | undefined }[];
    } = {},
  ) {
    super(message, details);
    this.code = code;
    this.status = details.status;
    this.url = details.url;
    this.body = details.body;
    this.packageName = details.packageName;
    this.tried = details.tried ?? [];
  }
}

/** A request took longer than `timeoutMs` milliseconds and was abandoned; raise the timeout or check the backend. */
export class TimeoutError extends LabError {
  override name = 'TimeoutError';
  override readonly code = 'LLM_TIMEOUT';
  /**
   * @param timeoutMs the limit, in milliseconds.
   * @param what what timed out, in words (`request to http://…`).
   */
  constructor(
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`${what} timed out after ${timeoutMs} ms`);
  }
}

/** Codes of {@link AbortedError}. */
export type AbortedErrorCode = 'LLM_ABORTED' | 'JOB_ABORTED';

/**
 * The caller stopped the work through its `AbortSignal`: a language request (`LLM_ABORTED`) or a whole job
 * (`JOB_ABORTED`; what it had finished is kept, streamed to its sink). Nothing to fix.
 */
export class AbortedError extends LabError {
  override name = 'AbortedError';
  override readonly code: AbortedErrorCode;
  constructor(code: AbortedErrorCode, message: string, details: LabErrorOptions = {}) {
    super(message, details);
    this.code = code;
  }
}

/** Codes of {@link ModelFileError}. */
export type ModelFileErrorCode =
  | 'EMBED_MODEL_UNAVAILABLE'
  | 'LLM_MODEL_FILE_INVALID'
  | 'LLM_MODEL_LOAD_FAILED'
  | 'LLM_MODEL_TOO_LARGE'
  | 'LLM_MODEL_UNSUPPORTED'
  | 'PPDPP_MODEL_INVALID';

/**
 * A model cannot be loaded or used: the file is missing, not a GGUF file or damaged; the download or compilation
 * failed; it needs more memory than is free or a feature the device lacks; a trained planner does not fit its
 * task. Pick another model or fix the file. `model` names it (an id or a file), `path` the file when it is one.
 */
export class ModelFileError extends LabError {
  override name = 'ModelFileError';
  override readonly code: ModelFileErrorCode;
  /** The model's id or file, when known. */
  readonly model: string | undefined;
  /** The model's file, when the fault is a file's. */
  readonly path: string | undefined;
  /** What is wrong, without the prefix of the message, when known. */
  readonly reason: string | undefined;

  constructor(
    code: ModelFileErrorCode,
    message: string,
    details: LabErrorOptions & { model?: string; path?: string; reason?: string } = {},
  ) {
    super(message, details);
    this.code = code;
    this.model = details.model;
    this.path = details.path;
    this.reason = details.reason;
  }
}

/** Codes of {@link PrivacyError}. */
export type PrivacyErrorCode = 'LLM_PRIVACY' | 'LLM_REDIRECT_REFUSED';

/**
 * Dialogue text would leave the machine: a remote (non-loopback) URL, or a loopback server's redirect to another
 * host, without `allowRemote: true`. Nothing was sent. Use a local server or allow remote hosts. `url` is the
 * refused URL (the one that redirected, for `LLM_REDIRECT_REFUSED`, with `fromHost` and `toHost`).
 */
export class PrivacyError extends LabError {
  override name = 'PrivacyError';
  override readonly code: PrivacyErrorCode;
  readonly url: string;
  /** Host (with port) that answered with the redirect. */
  readonly fromHost: string | undefined;
  /** Host (with port) of the redirect target; undefined when the browser hides it or for no redirect. */
  readonly toHost: string | undefined;

  constructor(
    code: PrivacyErrorCode,
    message: string,
    details: LabErrorOptions & { url: string; fromHost?: string; toHost?: string | undefined },
  ) {
    super(message, details);
    this.code = code;
    this.url = details.url;
    this.fromHost = details.fromHost;
    this.toHost = details.toHost;
  }
}

/**
 * The replay backend has no (or no more) recorded answer for request key `key`; re-record the fixtures. The
 * message says what the request asked (`asked`) and, when the backend answered a similar request before, that
 * request's key and how the unmatched one differs from it (`nearest`). Code `LLM_FIXTURE_MISSING`.
 */
export class FixtureMissingError extends LabError {
  override name = 'FixtureMissingError';
  override readonly code = 'LLM_FIXTURE_MISSING';
  /** What the request asked (message count, format, last message), when known. */
  readonly asked: string | undefined;
  /** The nearest answered request's key and how the unmatched request differs from it, when there is one. */
  readonly nearest: { key: string; difference: string } | undefined;
  constructor(
    readonly key: string,
    detail: string,
    context: { asked?: string; nearest?: { key: string; difference: string } | undefined } = {},
  ) {
    super(
      `no replay fixture for request ${key}: ${detail}` +
        (context.asked ? `\n  asked: ${context.asked}` : '') +
        (context.nearest
          ? `\n  nearest answered request ${context.nearest.key}: ${context.nearest.difference}`
          : ''),
    );
    this.asked = context.asked;
    this.nearest = context.nearest;
  }
}

/** Codes of {@link DataFormatError}. */
export type DataFormatErrorCode =
  | 'DATASET_INVALID'
  | 'EMOLLM_SEED_INVALID'
  | 'EVAL_STORED_EPISODE_INVALID'
  | 'FILE_DAMAGED'
  | 'MEMORY_FILE_INVALID'
  | 'MEMORY_PRINCIPLE_UNPARSABLE'
  | 'SIM_FITTED_PARAMS_INVALID';

/**
 * A file or text was read but its content is not in the expected format (invalid JSON, cut short, a record that
 * breaks its schema, a duplicate id, non-finite numbers, a principle sentence without its four parts). Fix or
 * replace the file. `path` names the file and `line` (1-based; 0 = the whole file) the place when known;
 * `reason` says what is wrong without the location; `issues` lists each problem as `path: message` when there
 * are several.
 */
export class DataFormatError extends LabError {
  override name = 'DataFormatError';
  override readonly code: DataFormatErrorCode;
  /** The file (as given to the reader), when the text came from one. */
  readonly path: string | undefined;
  /** 1-based line of the fault (0 = the whole file), when known. */
  readonly line: number | undefined;
  /** What is wrong, without the location, when the message has one. */
  readonly reason: string | undefined;
  /** Each problem as `path: message`, when there are several. */
  readonly issues: readonly string[];

  constructor(
    code: DataFormatErrorCode,
    message: string,
    details: LabErrorOptions & {
      path?: string;
      line?: number;
      reason?: string;
      issues?: readonly string[];
    } = {},
  ) {
    super(message, details);
    this.code = code;
    this.path = details.path;
    this.line = details.line;
    this.reason = details.reason;
    this.issues = details.issues ?? [];
  }

  /**
   * A record's error, `file:line: reason` (datasets, seed files); `file: reason`, with no `line`, when `line` is 0:
   * a problem of the file as a whole (a missing companion file).
   */
  static record(
    code: 'DATASET_INVALID' | 'EMOLLM_SEED_INVALID',
    file: string,
    line: number,
    reason: string,
  ): DataFormatError {
    if (line > 0)
      return new DataFormatError(code, `${file}:${line}: ${reason}`, { path: file, line, reason });
    return new DataFormatError(code, `${file}: ${reason}`, { path: file, reason });
  }
}

/** Codes of {@link PathError}. */
export type PathErrorCode = 'FILE_UNREADABLE' | 'PATH_KIND_MISMATCH' | 'OUTPUT_PATH_INVALID';

/**
 * A path cannot be read or written as asked: no such file, no permission, not UTF-8, a folder where a file is
 * expected (or the reverse), an output under a file or in a folder that is not writable. Give another path.
 * `path` is the path as given, `reason` what is wrong; for `PATH_KIND_MISMATCH`, `at` is the path of the wrong
 * kind (`path` itself or one of its folders), `found` what it is and `expected` what it should have been.
 */
export class PathError extends LabError {
  override name = 'PathError';
  override readonly code: PathErrorCode;
  readonly path: string;
  readonly reason: string;
  readonly at: string | undefined;
  readonly found: 'file' | 'folder' | undefined;
  readonly expected: string | undefined;

  constructor(
    code: PathErrorCode,
    message: string,
    details: LabErrorOptions & {
      path: string;
      reason: string;
      at?: string;
      found?: 'file' | 'folder';
      expected?: string;
    },
  ) {
    super(message, details);
    this.code = code;
    this.path = details.path;
    this.reason = details.reason;
    this.at = details.at;
    this.found = details.found;
    this.expected = details.expected;
  }
}

/** Codes of {@link OutputConflictError}. */
export type OutputConflictCode = 'OUTPUT_CONFLICT' | 'TRAIN_RUN_EXISTS' | 'MEMORY_EXISTS';

/** A switch of an output guard: `resume` continues what the output holds, `overwrite` replaces it. */
export type OutputSwitch = 'resume' | 'overwrite';

/**
 * An output already holds something the caller did not ask to replace: a file or folder at an output path
 * (`OUTPUT_CONFLICT`), a stored training run (`TRAIN_RUN_EXISTS`), a stored principle memory (`MEMORY_EXISTS`).
 * Nothing was written. Pass one of {@link LabError.settings} (`resume`, `overwrite`, `replace`) or choose another
 * name. `path` is the output (a path, a run id or a memory name), `found` what is there in words.
 */
export class OutputConflictError extends LabError {
  override name = 'OutputConflictError';
  override readonly code: OutputConflictCode;
  readonly path: string;
  readonly found: string;
  /** How to proceed in words, besides the settings (e.g. `choose another path`), or empty. */
  readonly hint: string;

  constructor(
    code: OutputConflictCode,
    message: string,
    details: LabErrorOptions & { path: string; found: string; hint?: string },
  ) {
    super(message, details);
    this.code = code;
    this.path = details.path;
    this.found = details.found;
    this.hint = details.hint ?? '';
  }
}

/**
 * An output (a run or evaluation folder, a trajectory or memory file) is being written by another live process:
 * two processes writing one output would mix their work, so the second is refused before any work. Wait for the
 * other process or stop it. Code `OUTPUT_LOCKED`.
 */
export class LockHeldError extends LabError {
  override name = 'LockHeldError';
  override readonly code = 'OUTPUT_LOCKED';
  /**
   * @param path the output.
   * @param holder who holds it, in words (`pid 123 on host h, started 2026-01-02T03:04:05Z: npm run train …`).
   * @param lockFile the lock file.
   */
  constructor(
    readonly path: string,
    readonly holder: string,
    readonly lockFile: string,
  ) {
    super(
      `${path} is in use by another process (${holder}); wait for it to finish or stop it ` +
        `(a lock left by a process that no longer runs is taken over by itself: ${lockFile})`,
    );
  }
}

/** Codes of {@link DiskFullError}. */
export type DiskFullErrorCode = 'DISK_FULL' | 'STORAGE_QUOTA';

/**
 * The disk (ENOSPC, or EDQUOT: a quota) or the browser's storage quota filled up while writing. What was finished
 * before stays whole. Free space and continue. `path` is the file being written (`DISK_FULL`), `database` the
 * IndexedDB database (`STORAGE_QUOTA`).
 */
export class DiskFullError extends LabError {
  override name = 'DiskFullError';
  override readonly code: DiskFullErrorCode;
  readonly path: string | undefined;
  readonly database: string | undefined;
  constructor(
    code: DiskFullErrorCode,
    message: string,
    details: LabErrorOptions & { path?: string; database?: string } = {},
  ) {
    super(message, details);
    this.code = code;
    this.path = details.path;
    this.database = details.database;
  }
}

/** Codes of {@link StorageError}. */
export type StorageErrorCode =
  | 'MEMORY_NOT_FOUND'
  | 'MEMORY_VERSION'
  | 'RL_RUN_NOT_FOUND'
  | 'STORAGE_BLOCKED'
  | 'STORAGE_CLOSED'
  | 'STORAGE_DENIED'
  | 'STORAGE_UNAVAILABLE'
  | 'STORAGE_VERSION';

/**
 * The store cannot serve the request: IndexedDB missing, denied, blocked by another tab, upgraded by another
 * tab or written by a newer version of the app; no stored run or memory of that name; stored records this
 * version cannot read. The message says what to do (close other tabs, reload, allow site storage, check the
 * name). `database` names the database and `id` the run or memory asked for, when known.
 */
export class StorageError extends LabError {
  override name = 'StorageError';
  override readonly code: StorageErrorCode;
  readonly database: string | undefined;
  /** The run id or memory name asked for, when the fault is a missing one. */
  readonly id: string | undefined;
  constructor(
    code: StorageErrorCode,
    message: string,
    details: LabErrorOptions & { database?: string; id?: string } = {},
  ) {
    super(message, details);
    this.code = code;
    this.database = details.database;
    this.id = details.id;
  }
}

/** Codes of {@link CheckpointError}. */
export type CheckpointErrorCode =
  | 'ENV_CHECKPOINT_INVALID'
  | 'FINISHED_EPISODE_MISMATCH'
  | 'GRPO_SNAPSHOT_INVALID'
  | 'MEMORY_CHECKPOINT_DAMAGED'
  | 'RL_RUN_DAMAGED'
  | 'RL_SNAPSHOT_INVALID'
  | 'RL_WEIGHTS_CORRUPT'
  | 'RL_WEIGHTS_MISMATCH'
  | 'RUN_FILE_DAMAGED'
  | 'RUN_FLOAT32_INVALID'
  | 'RUN_KIND_MISMATCH'
  | 'TRAIN_RESUME_CONFLICT'
  | 'TRAIN_RUN_INVALID';

/**
 * Saved work cannot be resumed or loaded: a training run, snapshot, weight file, environment or construction
 * checkpoint that is damaged, of another trainer or version, or given other settings than it was made with; a
 * finished episode that is not the run's. Restore it from a copy, resume without the other settings, or start a
 * new run. Structured fields, when known: `runId`, `path` (file or folder) and `line`, `tensor` at fault,
 * `conflicts` (each setting given against the stored one), `index` (0-based finished episode).
 */
export class CheckpointError extends LabError {
  override name = 'CheckpointError';
  override readonly code: CheckpointErrorCode;
  readonly runId: string | undefined;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly tensor: string | undefined;
  readonly reason: string | undefined;
  readonly conflicts: readonly { key: string; given: unknown; stored: unknown }[];
  readonly index: number | undefined;

  constructor(
    code: CheckpointErrorCode,
    message: string,
    details: LabErrorOptions & {
      runId?: string | undefined;
      path?: string;
      line?: number;
      tensor?: string | undefined;
      reason?: string;
      conflicts?: readonly { key: string; given: unknown; stored: unknown }[];
      index?: number;
    } = {},
  ) {
    super(message, details);
    this.code = code;
    this.runId = details.runId;
    this.path = details.path;
    this.line = details.line;
    this.tensor = details.tensor;
    this.reason = details.reason;
    this.conflicts = details.conflicts ?? [];
    this.index = details.index;
  }
}

/** Codes of {@link ServerProtocolError}, with the HTTP status each is answered with. */
export const SERVER_STATUS = {
  SERVER_ERROR: 500,
  VALIDATION_ERROR: 422,
  INVALID_JSON: 400,
  UNKNOWN_TYPE: 400,
  CAPACITY_REACHED: 503,
  VERSION_MISMATCH: 409,
  UNAUTHORIZED: 401,
  SCOPE_FORBIDDEN: 403,
  SESSION_ERROR: 409,
  CHECKPOINT_INVALID: 400,
  UNKNOWN_SEED: 404,
  SHUTTING_DOWN: 503,
  PAYLOAD_TOO_LARGE: 413,
  NOT_FOUND: 404,
} as const;

/** Codes of {@link ServerProtocolError}. */
export type ServerProtocolCode = keyof typeof SERVER_STATUS;

/**
 * The environment server refuses a client's request: not JSON or not of the protocol's shape, an unknown message
 * type or seed, no token or a token without the scope, a full server, a session in the wrong state, a damaged
 * checkpoint token. Fix the request (the client's side). Sent as `{ code, message }`; over HTTP with `status`
 * ({@link SERVER_STATUS}). `issues` lists the schema's complaints, one per field, for `VALIDATION_ERROR`.
 */
export class ServerProtocolError extends LabError {
  override name = 'ServerProtocolError';
  override readonly code: ServerProtocolCode;
  /** HTTP status of the reply (WebSocket replies carry only the code). */
  readonly status: number;
  readonly issues: readonly { path: (string | number)[]; message: string }[];
  constructor(
    code: ServerProtocolCode,
    message: string,
    details: LabErrorOptions & { issues?: readonly { path: (string | number)[]; message: string }[] } = {},
  ) {
    super(message, details);
    this.code = code;
    this.status = SERVER_STATUS[code];
    this.issues = details.issues ?? [];
  }
}

/** Codes of {@link ExecutionError}. */
export type ExecutionErrorCode = 'WORKER_FAILED' | 'EVAL_WORKER_MISUSE' | 'BASELINE_FAILED';

/**
 * A piece of the pipeline failed while running, through no option or file of the user's: a worker crashed or
 * exited while work was pending (`WORKER_FAILED`), an evaluation worker was used out of order, a baseline could
 * not produce an action (a rule table or model answer named a stage or label the task does not have). Report it
 * with the message; the cause is kept.
 */
export class ExecutionError extends LabError {
  override name = 'ExecutionError';
  override readonly code: ExecutionErrorCode;
  constructor(code: ExecutionErrorCode, message: string, details: LabErrorOptions = {}) {
    super(message, details);
    this.code = code;
  }
}
