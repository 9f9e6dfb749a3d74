/**
 * The environment server: node:http for OpenEnv's HTTP routes and `ws` for its WebSocket sessions, a thin
 * transport over {@link Session} (see protocol.ts for the wire format and the version of OpenEnv it matches).
 *
 * Limits and safety: at most `maxSessions` WebSocket sessions (more are answered `CAPACITY_REACHED` and closed);
 * a session idle for `idleTimeoutMs` is answered `SESSION_IDLE_TIMEOUT` and closed; frames and bodies above
 * `maxMessageBytes` are refused (HTTP 413 `PAYLOAD_TOO_LARGE`; WebSocket close code 1009); every error is a typed
 * `{ code, message }`; `shutdown()` refuses new work (`SHUTTING_DOWN`), lets in-flight steps finish, then closes
 * every session (close code 1001). Loopback bind by default: any other host needs a token, compared in constant
 * time, sent as `Authorization: Bearer <token>` on every request and on the WebSocket upgrade (all routes but
 * `/health`). The token is never logged nor echoed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { hasCode, LabError, ServerProtocolError, ConfigError } from '../errors';
import { SIMULATOR_VERSION } from '../sim/version';
import { getTask } from '../tasks/registry';
import { badMessageError, invalidJsonError, portInUseError } from './errors';
import {
  ActionSchema,
  ClientFrameSchema,
  CLIENT_FRAME_TYPES,
  OPENENV_MATCHED,
  PROTOCOL_VERSION,
  ResetRequestSchema,
  RestoreRequestSchema,
  ScopeSchema,
  StateRequestSchema,
  StepRequestSchema,
  issuesOf,
  jsonSchemas,
  type ClientFrame,
  type Scope,
} from './protocol';
import { Session, type SessionContext } from './session';
import type { z } from 'zod';

/** Options of {@link EnvServer}. */
export interface EnvServerOptions {
  context: SessionContext;
  /** Bind address (default 127.0.0.1). Anything but loopback needs `token`. */
  host?: string;
  /** Port (0: any free port; see `address()`). */
  port: number;
  /** Most WebSocket sessions open at once in this process (default 64). */
  maxSessions?: number;
  /** A session with no message for this long is closed (default 600,000 ms). */
  idleTimeoutMs?: number;
  /** Largest WebSocket frame or HTTP body, in bytes (default 1 MiB). */
  maxMessageBytes?: number;
  /** Allow the `critic` scope (the simulator's hidden state for critics; default false). */
  allowCritic?: boolean;
  /** The shared secret clients must send (required for a non-loopback host). */
  token?: string;
  /** Longest wait for in-flight steps at shutdown before sessions are cut (default 30,000 ms). */
  shutdownGraceMs?: number;
  /** One line per event worth logging (start, shutdown); never the token. */
  log?: (line: string) => void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Whether `host` binds to loopback only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * WebSocket close codes the server uses (docs/server.md "Close codes"; the Python client maps them to typed errors).
 */
export const CLOSE_CODES = {
  /** The client sent `close`. */
  normal: 1000,
  /** The server shuts down, after its in-flight steps. */
  goingAway: 1001,
  /** A frame over the size limit (`PAYLOAD_TOO_LARGE`). */
  tooBig: 1009,
  /** Every session slot is taken at the upgrade (`CAPACITY_REACHED`). */
  tryAgainLater: 1013,
  /** Idle past the timeout (`SESSION_IDLE_TIMEOUT`). */
  idle: 4408,
  /**
   * Refused at the upgrade, after an error frame; the reason is its code: `VERSION_MISMATCH`, `SCOPE_FORBIDDEN`,
   * `VALIDATION_ERROR` (a bad scope) or `SHUTTING_DOWN`.
   */
  refused: 4409,
} as const;

interface Connection {
  ws: WebSocket;
  session: Session;
  /** The chain of this session's frames, handled one at a time. */
  queue: Promise<void>;
  idle: NodeJS.Timeout | null;
  /** Settles when the connection has closed. */
  closed: Promise<void>;
}

/** A typed error as sent: `{ code, message }`, plus the schema's complaints for a bad message. */
export function errorBody(err: unknown): { code: string; message: string; errors?: unknown } {
  if (hasCode(err, ServerProtocolError, 'VALIDATION_ERROR'))
    return { code: err.code, message: err.message, errors: err.issues };
  if (err instanceof LabError) return { code: err.code, message: err.message };
  return { code: 'EXECUTION_ERROR', message: err instanceof Error ? err.message : String(err) };
}

function statusOf(err: unknown): number {
  if (err instanceof ServerProtocolError) return err.status;
  if (err instanceof LabError && /INVALID|MISMATCH/.test(err.code)) return 422;
  return 500;
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const checked = schema.safeParse(value);
  if (!checked.success) {
    const issues = issuesOf(checked.error);
    const first = issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    throw badMessageError(`invalid ${what}: ${where}${first?.message ?? 'bad shape'}`, issues);
  }
  return checked.data;
}

/** The environment server (see the module comment). */
export class EnvServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  private readonly httpInFlight = new Set<Promise<unknown>>();
  private readonly maxSessions: number;
  private readonly idleTimeoutMs: number;
  private readonly maxMessageBytes: number;
  private readonly host: string;
  private readonly tokenDigest: Buffer | null;
  private draining = false;

  /** @throws ConfigError for a non-loopback host without a token, or a limit out of range. */
  constructor(private readonly options: EnvServerOptions) {
    this.host = options.host ?? '127.0.0.1';
    if (!isLoopback(this.host) && !options.token)
      throw new ConfigError(
        'SERVER_OPTION_INVALID',
        `binding ${this.host} (not loopback) needs a token: set it in the environment (see --token-env)`,
      );
    this.maxSessions = options.maxSessions ?? 64;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 600_000;
    this.maxMessageBytes = options.maxMessageBytes ?? 1024 * 1024;
    for (const [name, v] of [
      ['max sessions', this.maxSessions],
      ['idle timeout', this.idleTimeoutMs],
      ['max message bytes', this.maxMessageBytes],
    ] as const)
      if (!Number.isInteger(v) || v < 1)
        throw new ConfigError('SERVER_OPTION_INVALID', `${name} must be a positive integer, got ${v}`);
    this.tokenDigest = options.token ? digest(options.token) : null;
    this.http = createServer((req, res) => this.onHttp(req, res));
    this.http.requestTimeout = 120_000;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.maxMessageBytes });
    this.http.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket as Socket, head));
  }

  /**
   * Starts listening. @returns the bound address (the port, when 0 was asked).
   * @throws ConfigError (SERVER_PORT_IN_USE) when the port is taken; the `node:net` error otherwise.
   */
  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject_) => {
      const reject = (e: unknown): void =>
        reject_(
          (e as NodeJS.ErrnoException).code === 'EADDRINUSE'
            ? portInUseError(this.host, this.options.port, { cause: e })
            : e,
        );
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.host, () => {
        this.http.off('error', reject);
        const address = this.http.address() as AddressInfo;
        this.options.log?.(
          `env server on http://${this.host}:${address.port} (ws /ws; protocol ${PROTOCOL_VERSION}, ` +
            `${SIMULATOR_VERSION}; max ${this.maxSessions} sessions, idle timeout ${this.idleTimeoutMs / 1000} s` +
            `${this.tokenDigest ? ', token required' : ''}${this.options.allowCritic ? ', critic scope allowed' : ''})`,
        );
        resolve(address);
      });
    });
  }

  /** Open WebSocket sessions. */
  get sessions(): number {
    return this.connections.size;
  }

  /**
   * Graceful shutdown: stop accepting, refuse new work, wait for in-flight steps (at most the grace period), then
   * close every session (1001) and the listener.
   */
  async shutdown(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    this.options.log?.('shutting down: in-flight steps finish, new ones are refused');
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeIdleConnections();
    // In-flight work, and frames already received behind it (each refused with SHUTTING_DOWN, in order).
    const settled = (async () => {
      for (;;) {
        const queues = [...[...this.connections].map((c) => c.queue), ...this.httpInFlight];
        await Promise.all(queues);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const now = [...[...this.connections].map((c) => c.queue), ...this.httpInFlight];
        if (now.length === queues.length && now.every((q, i) => q === queues[i])) return;
      }
    })();
    const grace = new Promise<void>((resolve) =>
      setTimeout(resolve, this.options.shutdownGraceMs ?? 30_000).unref(),
    );
    await Promise.race([settled, grace]);
    const open = [...this.connections];
    for (const c of open) c.ws.close(CLOSE_CODES.goingAway, 'server shutting down');
    // The close handshake flushes the last replies; a client that does not answer it is cut after 2 s.
    const cut = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.race([Promise.all(open.map((c) => c.closed)), cut]);
    for (const c of this.connections) c.ws.terminate();
    this.wss.close();
    this.http.closeAllConnections();
    await closed;
  }

  // ---- authentication and versions ----

  private authorized(req: IncomingMessage): boolean {
    if (this.tokenDigest === null) return true;
    const header = req.headers.authorization ?? '';
    const sent = header.startsWith('Bearer ') ? header.slice(7) : '';
    return timingSafeEqual(digest(sent), this.tokenDigest);
  }

  private checkVersions(protocol: unknown, simulator: unknown): void {
    if (protocol !== undefined && protocol !== null && Number(protocol) !== PROTOCOL_VERSION)
      throw new ServerProtocolError(
        'VERSION_MISMATCH',
        `client speaks protocol ${String(protocol)}, this server protocol ${PROTOCOL_VERSION}`,
      );
    if (simulator !== undefined && simulator !== null && simulator !== SIMULATOR_VERSION)
      throw new ServerProtocolError(
        'VERSION_MISMATCH',
        `client expects simulator ${String(simulator)}, this server runs ${SIMULATOR_VERSION}`,
      );
  }

  private scopeOf(raw: unknown): Scope {
    const scope = raw === undefined || raw === null ? 'policy' : parse(ScopeSchema, raw, 'scope');
    if (scope === 'critic' && !this.options.allowCritic)
      throw new ServerProtocolError(
        'SCOPE_FORBIDDEN',
        'the critic scope is off on this server (start it with --allow-critic)',
      );
    return scope;
  }

  // ---- WebSocket ----

  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws')
      return refuseUpgrade(
        socket,
        404,
        new ServerProtocolError('NOT_FOUND', `no WebSocket at ${url.pathname}`),
      );
    if (!this.authorized(req))
      return refuseUpgrade(socket, 401, new ServerProtocolError('UNAUTHORIZED', 'missing or wrong token'));
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      let session: Session;
      try {
        if (this.draining) throw new ServerProtocolError('SHUTTING_DOWN', 'the server is shutting down');
        this.checkVersions(
          url.searchParams.get('protocol_version') ?? undefined,
          url.searchParams.get('simulator_version') ?? undefined,
        );
        const scope = this.scopeOf(url.searchParams.get('scope') ?? undefined);
        if (this.connections.size >= this.maxSessions)
          throw new ServerProtocolError(
            'CAPACITY_REACHED',
            `all ${this.maxSessions} sessions are in use; retry later or start more workers`,
          );
        session = new Session(this.options.context, scope);
      } catch (err) {
        sendError(ws, err);
        ws.close(
          hasCode(err, ServerProtocolError, 'CAPACITY_REACHED')
            ? CLOSE_CODES.tryAgainLater
            : CLOSE_CODES.refused,
          codeOf(err),
        );
        return;
      }
      const conn: Connection = {
        ws,
        session,
        queue: Promise.resolve(),
        idle: null,
        closed: new Promise((resolve) => ws.once('close', () => resolve())),
      };
      this.connections.add(conn);
      this.touch(conn);
      ws.on('message', (data, isBinary) => {
        this.clearIdle(conn);
        conn.queue = conn.queue
          .then(() => this.onFrame(conn, data, isBinary))
          .finally(() => this.touch(conn));
      });
      ws.on('close', () => {
        this.clearIdle(conn);
        this.connections.delete(conn);
      });
      ws.on('error', () => {
        // Oversized frames (close 1009) and broken connections: `close` follows and releases the session.
      });
    });
  }

  private touch(conn: Connection): void {
    this.clearIdle(conn);
    if (!this.connections.has(conn)) return;
    conn.idle = setTimeout(() => {
      sendError(
        conn.ws,
        new ServerProtocolError('SERVER_ERROR', `session idle for ${this.idleTimeoutMs / 1000} s: closed`),
        'SESSION_IDLE_TIMEOUT',
      );
      conn.ws.close(CLOSE_CODES.idle, 'SESSION_IDLE_TIMEOUT');
    }, this.idleTimeoutMs);
    conn.idle.unref();
  }

  private clearIdle(conn: Connection): void {
    if (conn.idle) clearTimeout(conn.idle);
    conn.idle = null;
  }

  private async onFrame(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const { ws, session } = conn;
    if (ws.readyState !== ws.OPEN) return;
    try {
      let json: unknown;
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
      try {
        json = JSON.parse(text);
      } catch (e) {
        throw invalidJsonError('the message', text, e);
      }
      const type = frameType(json);
      const frame = parse(ClientFrameSchema, json, `${type} message`);
      if (this.draining && frame.type !== 'close' && frame.type !== 'state')
        throw new ServerProtocolError('SHUTTING_DOWN', 'the server is shutting down: no new steps');
      switch (frame.type) {
        case 'reset': {
          const req = parse(ResetRequestSchema, frame.data ?? {}, 'reset data');
          this.checkVersions(req.protocol_version, req.simulator_version);
          send(ws, { type: 'observation', data: session.reset(req) });
          return;
        }
        case 'step': {
          const action = parse(ActionSchema, frame.data, 'action');
          send(ws, { type: 'observation', data: await session.step(action) });
          return;
        }
        case 'state':
          send(ws, { type: 'state', data: session.state() });
          return;
        case 'checkpoint':
          send(ws, { type: 'checkpoint', data: session.checkpoint() });
          return;
        case 'restore': {
          const { checkpoint } = parse(RestoreRequestSchema, frame.data, 'restore data');
          send(ws, { type: 'observation', data: session.restore(checkpoint) });
          return;
        }
        case 'close':
          ws.close(CLOSE_CODES.normal, 'closed by client');
          return;
      }
    } catch (err) {
      sendError(ws, err);
    }
  }

  // ---- HTTP ----

  private onHttp(req: IncomingMessage, res: ServerResponse): void {
    const work = this.route(req, res).catch((err: unknown) => reply(res, statusOf(err), errorBody(err)));
    this.httpInFlight.add(work);
    void work.finally(() => this.httpInFlight.delete(work));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    if (route === 'GET /health') {
      reply(res, this.draining ? 503 : 200, { status: this.draining ? 'unhealthy' : 'healthy' });
      return;
    }
    if (!this.authorized(req)) throw new ServerProtocolError('UNAUTHORIZED', 'missing or wrong token');
    this.checkVersions(req.headers['x-protocol-version'], req.headers['x-simulator-version']);
    switch (route) {
      case 'GET /metadata':
        reply(res, 200, this.metadata());
        return;
      case 'GET /schema':
        reply(res, 200, jsonSchemas());
        return;
      case 'GET /state':
        // OpenEnv builds a fresh environment per HTTP request: its state is that of no episode.
        reply(res, 200, new Session(this.options.context, 'policy').state());
        return;
    }
    if (route !== 'POST /reset' && route !== 'POST /step' && route !== 'POST /state')
      throw new ServerProtocolError(
        'NOT_FOUND',
        `no route ${route} (routes: /reset /step /state /schema /health /metadata, ws /ws)`,
      );
    if (this.draining)
      throw new ServerProtocolError('SHUTTING_DOWN', 'the server is shutting down: no new steps');
    const body = await readBody(req, this.maxMessageBytes);
    if (route === 'POST /reset') {
      const request = parse(ResetRequestSchema, body ?? {}, 'reset body');
      this.checkVersions(request.protocol_version, request.simulator_version);
      const session = new Session(this.options.context, 'policy');
      const out = session.reset(request);
      reply(res, 200, { ...out, checkpoint: session.checkpoint().checkpoint });
    } else if (route === 'POST /step') {
      const request = parse(StepRequestSchema, body, 'step body');
      if (request.checkpoint === undefined)
        throw badMessageError(
          'HTTP /step is stateless: send the checkpoint of the /reset (or previous /step) reply, or use the ' +
            'WebSocket session at /ws',
          [{ path: ['checkpoint'], message: 'required' }],
        );
      const session = new Session(this.options.context, this.scopeOf(request.scope));
      session.restore(request.checkpoint);
      const out = await session.step(request.action);
      reply(res, 200, { ...out, checkpoint: session.checkpoint().checkpoint });
    } else {
      const request = parse(StateRequestSchema, body, 'state body');
      const session = new Session(this.options.context, this.scopeOf(request.scope));
      session.restore(request.checkpoint);
      reply(res, 200, session.state());
    }
  }

  private metadata(): Record<string, unknown> {
    const tasks = [...this.options.context.tasks.values()].map((t) => ({
      name: t.name,
      task: t.family,
      seed_set: t.seedSet ?? null,
      seeds: t.seeds.length,
      seed_ids: t.seeds.map((s) => s.id),
      strategies: getTask(t.family).strategies,
    }));
    return {
      name: 'proactive-dialogue-lab',
      description:
        'Cog-Sim user simulator and judges for proactive dialogue (ESConv, P4G, CraigslistBargain); the client ' +
        'is the actor: actions are { strategy, utterance }.',
      version: SIMULATOR_VERSION,
      readme_content: null,
      author: null,
      documentation_url: null,
      simulator_version: SIMULATOR_VERSION,
      protocol_version: PROTOCOL_VERSION,
      openenv: OPENENV_MATCHED,
      tasks,
      reward_protocol: this.options.context.protocol,
      critic_scope: this.options.allowCritic === true,
      limits: {
        max_sessions: this.maxSessions,
        idle_timeout_s: this.idleTimeoutMs / 1000,
        max_message_bytes: this.maxMessageBytes,
      },
      active_sessions: this.connections.size,
    };
  }
}

/**
 * The `type` of a client frame.
 * @throws ServerProtocolError: VALIDATION_ERROR for a frame that is not a JSON object (null, an array, a number, a
 *   string); UNKNOWN_TYPE for an object without a `type` or with one the protocol lacks. Each message lists the types.
 */
function frameType(json: unknown): ClientFrame['type'] {
  const types = CLIENT_FRAME_TYPES.join(', ');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    const got = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    throw badMessageError(`a frame must be a JSON object with a "type" field (one of ${types}); got ${got}`, [
      { path: [], message: `expected an object, got ${got}` },
    ]);
  }
  const type = (json as { type?: unknown }).type;
  if (type === undefined)
    throw new ServerProtocolError('UNKNOWN_TYPE', `the frame has no "type" field: give one of ${types}`);
  if (typeof type !== 'string' || !(CLIENT_FRAME_TYPES as readonly string[]).includes(type))
    throw new ServerProtocolError(
      'UNKNOWN_TYPE',
      `Unknown message type: ${typeof type === 'string' ? type : JSON.stringify(type)} (types: ${types})`,
    );
  return type as ClientFrame['type'];
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function codeOf(err: unknown): string {
  return errorBody(err).code;
}

function send(ws: WebSocket, frame: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
}

function sendError(ws: WebSocket, err: unknown, code?: string): void {
  const body = errorBody(err);
  send(ws, { type: 'error', data: { ...body, ...(code ? { code } : {}) } });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function refuseUpgrade(socket: Socket, status: number, err: ServerProtocolError): void {
  const text = JSON.stringify(errorBody(err));
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** The request body as JSON (undefined when empty). @throws ServerProtocolError (PAYLOAD_TOO_LARGE); ServerProtocolError (INVALID_JSON). */
async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    throw new ServerProtocolError(
      'PAYLOAD_TOO_LARGE',
      `body of ${declared} bytes is over the limit of ${limit}`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new ServerProtocolError('PAYLOAD_TOO_LARGE', `body over the limit of ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw invalidJsonError('the request body', text, e);
  }
}
