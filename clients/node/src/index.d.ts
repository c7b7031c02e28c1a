// Types of the catalogd Node client. The per-method types come from
// openrpc.json through scripts/generate.mjs (types.generated.d.ts).

import type {
  CatalogdMethods,
  ClientNotificationMap,
  InitializeResult,
  MethodMap,
  NotificationMap,
} from './types.generated.js';

export * from './types.generated.js';

/** Options of one request. */
export interface RequestOptions {
  /** Aborting it rejects the call with `signal.reason` and sends `$/cancelRequest`. */
  signal?: AbortSignal;
  /**
   * Time limit in milliseconds; when it passes the call rejects with
   * `RequestTimeoutError` and the client sends `$/cancelRequest`.
   * `0` or `Infinity`: no limit. Default: the client's `timeout`.
   */
  timeout?: number;
}

/** Options of `Client.start`. */
export interface StartOptions {
  /** The catalogd executable. Default: `$CATALOGD_BIN`, else `catalogd` on PATH. */
  binary?: string;
  /** Extra command-line arguments (`['--data-dir', dir]`). */
  args?: string[];
  /** Environment variables added to (and overriding) `process.env` for the daemon. */
  env?: Record<string, string | undefined>;
  /** Working directory of the daemon. */
  cwd?: string;
  /** `'ndjson'` (default) or `'lsp'` (`Content-Length` headers). The client passes `--framing` to the daemon. */
  framing?: 'ndjson' | 'lsp';
  /** Default time limit of every request, including `initialize`, in ms. Default 30000; `0` or `Infinity`: none. */
  timeout?: number;
  /** Sent in `initialize`. Default `{name: "catalogd-node", version: <package version>}`. */
  clientInfo?: { name: string; version?: string };
  /** The per-device UUID the daemon sends to the product upstream; default: the one in its data dir. */
  clientId?: string;
  /**
   * What to do with the daemon's stderr (its logfmt logs) besides keeping its
   * last 64 KiB in `client.stderr`: `'keep'` (default: only that),
   * `'inherit'` (also copy it to this process's stderr), or a function called
   * with each line.
   */
  stderr?: 'keep' | 'inherit' | ((line: string) => void);
  /**
   * Receives errors that no caller can receive: a notification handler threw,
   * the daemon sent something that is not a JSON-RPC message.
   * Default: `process.emitWarning(error)`.
   */
  onError?: (error: Error) => void;
}

/** How the daemon ended. */
export interface DaemonExit {
  /** Exit status; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`'SIGKILL'`), or null. */
  signal: string | null;
}

/** A notification as the iterator yields it. */
export type Notification = {
  [M in keyof NotificationMap]: { method: M; params: NotificationMap[M] };
}[keyof NotificationMap] | { method: string; params: unknown };

/** A function that removes a notification handler; also a `Disposable`. */
export type Disposer = (() => void) & Disposable;

/** A connection to one catalogd process. */
export interface Client extends CatalogdMethods {}
export class Client {
  private constructor();

  /**
   * Starts catalogd and does the `initialize` / `initialized` handshake.
   * Rejects with `DaemonStartError` when the binary cannot be run and with
   * `DaemonExitedError` (quoting its stderr) when it exits during the handshake.
   */
  static start(options?: StartOptions): Promise<Client>;

  /** The executable that was started. */
  readonly binary: string;
  /** The `initialize` result: `{serverInfo, clientId, capabilities}`. */
  readonly initializeResult: InitializeResult;
  readonly serverInfo: InitializeResult['serverInfo'];
  readonly capabilities: InitializeResult['capabilities'];
  readonly clientId: string;
  readonly framing: 'ndjson' | 'lsp';
  /** The daemon's process id. */
  readonly pid: number | undefined;
  /** The last 64 KiB of the daemon's stderr. */
  readonly stderr: string;
  /** How the daemon ended, once it has. */
  readonly exitStatus: DaemonExit | null;
  /** Resolves when the daemon has exited (never rejects). */
  readonly exited: Promise<DaemonExit>;

  /** The last `lines` (default 20) lines of the daemon's stderr. */
  stderrTail(lines?: number): string;

  /**
   * Sends a request and resolves with its result. Rejects with a
   * `CatalogdError` subclass for an error reply, `RequestTimeoutError`,
   * `signal.reason` on abort, `DaemonExitedError`, or `ClientClosedError`.
   */
  request<M extends keyof MethodMap>(
    method: M,
    params?: MethodMap[M]['params'],
    options?: RequestOptions,
  ): Promise<MethodMap[M]['result']>;
  request(method: string, params?: unknown, options?: RequestOptions): Promise<unknown>;

  /** Sends a notification. */
  notify<M extends keyof ClientNotificationMap>(method: M, params?: ClientNotificationMap[M]): void;
  notify(method: string, params?: unknown): void;

  /**
   * Calls `handler` for each notification `method` (`'*'`: all), in arrival
   * order and before the reply of the request that caused it. Returns the
   * disposer that removes the handler.
   */
  on<M extends keyof NotificationMap>(method: M, handler: (params: NotificationMap[M], method: M) => void): Disposer;
  on(method: string, handler: (params: any, method: string) => void): Disposer;

  /**
   * Notifications from now on, as an async iterator; `methods` filters them.
   * Ends when the client is closed; throws `DaemonExitedError` when the daemon
   * dies, and `signal.reason` when `signal` aborts.
   */
  notifications<M extends keyof NotificationMap>(
    methods: M | M[],
    options?: { signal?: AbortSignal },
  ): AsyncIterableIterator<{ method: M; params: NotificationMap[M] }>;
  notifications(methods?: string | string[], options?: { signal?: AbortSignal }): AsyncIterableIterator<Notification>;

  [Symbol.asyncIterator](): AsyncIterableIterator<Notification>;

  /**
   * `shutdown`, `exit`, then waits for the process (killed after `timeout` ms,
   * default 5000). Idempotent; calls still pending are cancelled (`RequestCancelled`).
   */
  close(options?: { timeout?: number }): Promise<DaemonExit>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Default request time limit, ms. */
export const DEFAULT_TIMEOUT_MS: number;
/** The framings the client speaks. */
export const FRAMINGS: readonly ['ndjson', 'lsp'];
/** camelCase method → wire name, for every generated method. */
export const METHODS: Readonly<Record<keyof CatalogdMethods, keyof MethodMap>>;
/** The notifications the daemon may send. */
export const SERVER_NOTIFICATIONS: readonly (keyof NotificationMap)[];

/** An error reply of the daemon. */
export class CatalogdError extends Error {
  constructor(code: number, message: string, data?: unknown, context?: { method?: string });
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The machine-readable detail (`{field, reason}`, `{resource, id}`, …). */
  readonly data: any;
  /** The method of the failed request. */
  readonly method: string | undefined;
  /** True when trying again later may succeed (UpstreamUnavailable). */
  readonly retryable: boolean;
  toJSON(): { code: number; message: string; data?: unknown };
}
/** -32700 */
export class ParseError extends CatalogdError {
  static readonly code: -32700;
  readonly data: { reason: string };
}
/** -32600 */
export class InvalidRequest extends CatalogdError {
  static readonly code: -32600;
  readonly data: { reason: string };
}
/** -32601 */
export class MethodNotFound extends CatalogdError {
  static readonly code: -32601;
  readonly data: { method: string };
}
/** -32602 */
export class InvalidParams extends CatalogdError {
  static readonly code: -32602;
  readonly data: { field: string; reason: string };
}
/** -32603 */
export class InternalError extends CatalogdError {
  static readonly code: -32603;
}
/** -32002 */
export class ServerNotInitialized extends CatalogdError {
  static readonly code: -32002;
}
/** -32800 */
export class RequestCancelled extends CatalogdError {
  static readonly code: -32800;
}
/** -32001 */
export class NotFound extends CatalogdError {
  static readonly code: -32001;
  readonly data: { resource: string; id: string | null };
}
/** -32009 */
export class Conflict extends CatalogdError {
  static readonly code: -32009;
  readonly data: { currentVersion: number };
}
/** -32020, retryable */
export class UpstreamUnavailable extends CatalogdError {
  static readonly code: -32020;
  readonly data: { service: string; retryable: true; reason?: string };
  readonly retryable: true;
}
/** -32021 */
export class UpstreamError extends CatalogdError {
  static readonly code: -32021;
  readonly data: { service: string; status?: number; upstreamMessage?: string };
}

/** The error class of each well-known code. */
export const ERROR_CLASSES: ReadonlyMap<number, typeof CatalogdError>;
/** The error for a JSON-RPC error object. */
export function errorFromWire(error: unknown, context?: { method?: string }): CatalogdError;

/** The daemon exited while a call was pending, or before it was made. */
export class DaemonExitedError extends Error {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The last lines of the daemon's stderr. */
  readonly stderrTail: string;
  readonly method: string | undefined;
}
/** The daemon binary could not be run. */
export class DaemonStartError extends Error {
  readonly binary: string;
}
/** No reply within the time limit; `$/cancelRequest` was sent. */
export class RequestTimeoutError extends Error {
  readonly method: string;
  readonly id: number;
  readonly timeout: number;
}
/** A call after `close()`. */
export class ClientClosedError extends Error {
  readonly method: string | undefined;
}
/** The daemon sent something that is not JSON-RPC (reported to `onError`). */
export class ProtocolError extends Error {
  readonly raw: string | undefined;
}
