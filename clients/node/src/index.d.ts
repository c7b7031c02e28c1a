// Types of the catalogd Node client. The per-method types come from
// openrpc.json through scripts/generate.mjs (types.generated.d.ts).

import type { EventEmitter } from 'node:events';

import type {
  CatalogdMethods,
  ClientNotificationMap,
  FeedInsert,
  FeedItemChange,
  FeedRange,
  FeedState,
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
  /** The language of the daemon's error messages, `'ko'` or `'en'`; default: its `LC_ALL`, `LC_MESSAGES` or `LANG`. */
  locale?: string;
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

  /**
   * Opens a feed of the daemon (`feeds/open`) as a `Feed`: a list of its
   * items that keeps itself up to date with the feed's notifications.
   * `Item` is the type of its items (`Product`, `Photo`, …) as you know it.
   */
  openFeed<Item extends object = Record<string, unknown>>(
    source: 'photos' | 'products' | 'places' | 'quotes',
    options?: OpenFeedOptions,
  ): Promise<Feed<Item>>;
}

/** Options of `client.openFeed`: the params of `feeds/open` and those of the request. */
export interface OpenFeedOptions extends RequestOptions {
  /** The source's filters (products: `query`, `supplierId`, `sort`; quotes: `author`, `tag`; places: …). */
  query?: Record<string, unknown>;
  /** Items per page (1–100); default the source's. */
  pageSize?: number;
  /**
   * `'diff'`: changes of the source arrive in place (`feeds/itemsChanged`);
   * `'reset'`: a change reloads the items. Default: the daemon's, `'diff'`.
   */
  changes?: 'diff' | 'reset';
}

interface FeedEventBase {
  /** The feed's state after the event. */
  readonly state: FeedState;
  /** The number of items after the event. */
  readonly count: number;
  /** The feed's generation after the event. */
  readonly generation: number;
}

/**
 * What one notification did to a feed, as `'change'` listeners receive it:
 *
 * - `page`: a page was appended; `changes` is one insert at the old length.
 * - `changes`: items changed in place (`feeds/itemsChanged`); `changes` are its
 *   steps, applied in order, each index in the list as the steps before it
 *   left it: move, insert, remove and redraw rows by them.
 * - `reset`: the whole list was replaced; redraw it from `feed.items`.
 *   `reason`: `'refresh'` (the first page of a new generation), `'resync'`
 *   (the list was reloaded after a `desync`) or `'cleared'` (the daemon
 *   dropped the items: daemons before live feeds do so when a refresh starts).
 * - `state`: `feeds/stateChanged`; `error` when the state is `'failed'`.
 * - `desync`: a notification did not fit the list (`error`); it is being
 *   reloaded, and a `reset` follows.
 */
export type FeedEvent =
  | (FeedEventBase & { readonly kind: 'page'; readonly changes: readonly [FeedInsert]; readonly reason: null; readonly error: null })
  | (FeedEventBase & { readonly kind: 'changes'; readonly changes: readonly FeedItemChange[]; readonly reason: null; readonly error: null })
  | (FeedEventBase & {
      readonly kind: 'reset';
      readonly changes: readonly [];
      readonly reason: 'refresh' | 'resync' | 'cleared';
      readonly error: null;
    })
  | (FeedEventBase & { readonly kind: 'state'; readonly changes: readonly []; readonly reason: null; readonly error: CatalogdError | null })
  | (FeedEventBase & { readonly kind: 'desync'; readonly changes: readonly []; readonly reason: null; readonly error: FeedOutOfSyncError });

/**
 * A feed of the daemon kept up to date by its notifications, from
 * `client.openFeed()`. It emits `'change'` with a `FeedEvent` after applying
 * each page, reset, change in place or state.
 */
export class Feed<Item extends object = Record<string, unknown>> extends EventEmitter {
  private constructor();
  readonly source: string;
  readonly query: Record<string, unknown> | undefined;
  readonly pageSize: number | undefined;
  readonly changes: 'diff' | 'reset' | undefined;
  /** The daemon's id of the feed. */
  readonly feedId: string;
  /** The items held, in the feed's order: frozen, and a new array after each change. */
  readonly items: readonly Item[];
  /** Grows by one at each refresh. */
  readonly generation: number;
  /** The number of items the daemon reported last (`items.length` when in step). */
  readonly count: number;
  readonly state: FeedState;
  /** True once the last page is loaded. */
  readonly endReached: boolean;
  /** The error of the last failed load or refresh (the items stay); null once a load succeeded. */
  readonly error: CatalogdError | null;
  /** True while the items are reloaded after a notification did not fit them. */
  readonly resyncing: boolean;
  readonly closed: boolean;

  /** Appends the next page; resolves once it is in `items` and `'change'` was emitted. */
  loadMore(options?: RequestOptions): Promise<FeedRange>;
  /** Pull-to-refresh: resolves once the new generation's first page replaced the items. */
  refresh(options?: RequestOptions): Promise<FeedRange>;
  /** Closes the feed in the daemon; idempotent. The items stay readable. */
  close(options?: RequestOptions): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;

  on(event: 'change', listener: (event: FeedEvent) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  once(event: 'change', listener: (event: FeedEvent) => void): this;
  once(event: string | symbol, listener: (...args: any[]) => void): this;
  off(event: 'change', listener: (event: FeedEvent) => void): this;
  off(event: string | symbol, listener: (...args: any[]) => void): this;
}

/**
 * The apply logic of a `Feed`, without I/O: the items of one feed kept by
 * applying its notifications in order. `apply` throws `FeedOutOfSyncError`
 * for a notification that does not fit (and leaves the list as it was).
 */
export class FeedMirror<Item extends object = Record<string, unknown>> {
  constructor(feedId?: string | null, state?: FeedState);
  feedId: string | null;
  readonly items: readonly Item[];
  readonly generation: number;
  readonly count: number;
  readonly state: FeedState;
  readonly endReached: boolean;
  readonly error: CatalogdError | null;
  readonly resyncing: boolean;
  apply(method: string, params: unknown): FeedEvent[];
  desync(error: FeedOutOfSyncError): FeedEvent;
  beginResync(): boolean;
  endResync(items: readonly Item[] | null): FeedEvent[];
}

/** `items` after the steps of a `feeds/itemsChanged`, as a new frozen array; throws `FeedOutOfSyncError` for a step outside the list. */
export function applyChanges<Item extends object>(
  items: readonly Item[],
  changes: readonly FeedItemChange[],
  feedId?: string | null,
): readonly Item[];

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
/** -32030, retryable: a change was not saved, the disk that holds the data is full */
export class StorageFull extends CatalogdError {
  static readonly code: -32030;
  readonly data: { retryable: true; reason?: string };
  readonly retryable: true;
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
/** A feed's notification did not fit its items; the feed reloads them (a `desync` event carries it). */
export class FeedOutOfSyncError extends ProtocolError {
  readonly feedId: string | null;
  readonly reason: string;
}
