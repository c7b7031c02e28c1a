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

// The explicit resource management types of TypeScript 5.2 (`await using`),
// declared as TypeScript 5.2's lib and @types/node declare them, so that
// these types also check with older TypeScript: identical declarations merge.
// Node 20 has the two symbols at run time.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
  interface Disposable {
    [Symbol.dispose](): void;
  }
  interface AsyncDisposable {
    [Symbol.asyncDispose](): PromiseLike<void>;
  }
}

/** This package's version, which is the daemon version it was made for (`'0.1.0'`). */
export const VERSION: string;

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

/** A JSON-RPC 2.0 message as it goes over the wire (what `trace` receives). */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  /** A request's or reply's id; absent in a notification. */
  id?: number | string | null;
  /** A request's or notification's method. */
  method?: string;
  params?: unknown;
  /** A success reply's result. */
  result?: unknown;
  /** An error reply's error. */
  error?: { code: number; message: string; data?: unknown };
}

/** Options of `Client.start`. */
export interface StartOptions {
  /**
   * The catalogd executable. Default: `$CATALOGD_BIN`, else the daemon
   * bundled in this package (`<package>/bin/catalogd`), else `catalogd` on PATH.
   */
  binary?: string;
  /** Extra command-line arguments (`['--data-dir', dir]`). */
  args?: string[];
  /**
   * Variables laid over `process.env` for the daemon (added, or overriding);
   * a variable given as `undefined` or `null` is removed. Default: the daemon
   * inherits `process.env` unchanged.
   */
  env?: Record<string, string | null | undefined>;
  /** Working directory of the daemon. */
  cwd?: string;
  /** `'ndjson'` (default) or `'lsp'` (`Content-Length` headers). The client passes `--framing` to the daemon. */
  framing?: 'ndjson' | 'lsp';
  /** Default time limit of every request, in ms. Default 30000; `0` or `Infinity`: none. */
  timeout?: number;
  /** Time limit of the `initialize` handshake, in ms. Default 30000; `0` or `Infinity`: none. */
  handshakeTimeout?: number;
  /** Sent in `initialize`. Default `{name: "catalogd-node", version: <package version>}`. */
  clientInfo?: { name: string; version?: string };
  /** The per-device UUID the daemon sends to the product upstream; default: the one in its data dir. */
  clientId?: string;
  /** The language of the daemon's error messages, `'ko'` or `'en'`; default: its `LC_ALL`, `LC_MESSAGES` or `LANG`. */
  locale?: string;
  /**
   * `'auto'` runs the session in the shared daemon of this configuration
   * (started when none runs), a path in the shared daemon listening on that
   * socket; passed as `--remote`. Default: a daemon of this client's own.
   */
  remote?: 'auto' | (string & {});
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
  /**
   * Gets every message sent (`'send'`) and received (`'receive'`), in wire
   * order, as the object it was written from or parsed into; read it, do not
   * change it. A trace that throws is reported to `onError`.
   */
  trace?: (direction: 'send' | 'receive', message: JsonRpcMessage) => void;
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
   * Rejects with `DaemonStartError` when no binary is found or it cannot be
   * run, with `DaemonExitedError` (quoting its stderr) when it exits during
   * the handshake, and with `RequestTimeoutError` after `handshakeTimeout`.
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
   * Sends a request and resolves with its result. Rejects with an `RpcError`
   * subclass for an error reply, `RequestTimeoutError`, `signal.reason` on
   * abort, `DaemonExitedError`, or `ClientClosedError`. `method` must be one
   * the types know (a misspelt one is a type error); for others, `requestUntyped`.
   */
  request<M extends keyof MethodMap>(
    method: M,
    params?: MethodMap[M]['params'],
    options?: RequestOptions,
  ): Promise<MethodMap[M]['result']>;

  /**
   * `request` for a method these types do not know (one a newer daemon
   * serves, a name computed at run time): the same call, untyped.
   */
  requestUntyped(method: string, params?: object, options?: RequestOptions): Promise<unknown>;

  /** Sends a notification (no reply). */
  notify<M extends keyof ClientNotificationMap>(method: M, params?: ClientNotificationMap[M]): void;

  /** `notify` for a notification these types do not know. */
  notifyUntyped(method: string, params?: object): void;

  /**
   * Calls `handler` for each notification `method`, in arrival order and
   * before the reply of the request that caused it. Returns the disposer
   * that removes the handler. `'*'` receives every notification, including
   * those these types do not know, with its method as second argument.
   */
  on<M extends keyof NotificationMap>(method: M, handler: (params: NotificationMap[M], method: M) => void): Disposer;
  on(method: '*', handler: (params: unknown, method: string) => void): Disposer;

  /**
   * Notifications from now on, as an async iterator; `methods` filters them
   * (without it: every notification, including those these types do not know).
   * Ends when the client is closed; throws `DaemonExitedError` when the daemon
   * dies, and `signal.reason` when `signal` aborts.
   */
  notifications<M extends keyof NotificationMap>(
    methods: M | readonly M[],
    options?: { signal?: AbortSignal },
  ): AsyncIterableIterator<{ [K in M]: { method: K; params: NotificationMap[K] } }[M]>;
  notifications(methods?: undefined, options?: { signal?: AbortSignal }): AsyncIterableIterator<Notification>;

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
  | (FeedEventBase & { readonly kind: 'state'; readonly changes: readonly []; readonly reason: null; readonly error: RpcError | null })
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
  readonly error: RpcError | null;
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
  readonly error: RpcError | null;
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

/** Default request time limit, ms: 30000. */
export const DEFAULT_TIMEOUT_MS: number;
/** Default time limit of the handshake, ms: 30000. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS: number;
/** Default time `close()` gives the daemon to exit before it is killed, ms: 5000. */
export const DEFAULT_CLOSE_TIMEOUT_MS: number;
/** Where the npm package carries its daemon: `<package root>/bin/catalogd`. */
export const BUNDLED_BINARY: string;
/**
 * The daemon `Client.start` runs and where it was found: `binary`, else
 * `$CATALOGD_BIN`, else `BUNDLED_BINARY` when it exists, else `catalogd` on
 * PATH. Throws `DaemonStartError` naming the four places when none has one.
 */
export function findBinary(binary?: string, env?: Record<string, string | undefined>): { binary: string; from: string };
/** The framings the client speaks. */
export const FRAMINGS: readonly ['ndjson', 'lsp'];
/** camelCase method → wire name, for every generated method. */
export const METHODS: Readonly<Record<keyof CatalogdMethods, keyof MethodMap>>;
/** The notifications the daemon may send. */
export const SERVER_NOTIFICATIONS: readonly (keyof NotificationMap)[];

/**
 * The root of every error the client raises: `RpcError` (an error reply),
 * the errors of the session (`DaemonExitedError`, `DaemonStartError`,
 * `RequestTimeoutError`, `ClientClosedError`, `ProtocolError`), and
 * `UsageError`, which `instanceof CatalogdError` also recognizes.
 */
export class CatalogdError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
}

/**
 * The client was called wrongly (an unknown framing, a negative timeout,
 * params that are neither an object nor an array): a bug to fix. A
 * `TypeError`, as Node's own APIs throw for misuse, and a `CatalogdError`.
 */
export class UsageError extends TypeError {
  constructor(message: string);
}

/** An error reply of the daemon; each well-known code has its subclass. */
export class RpcError extends CatalogdError {
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
export class ParseError extends RpcError {
  static readonly code: -32700;
  readonly data: { reason: string };
}
/** -32600 */
export class InvalidRequest extends RpcError {
  static readonly code: -32600;
  readonly data: { reason: string };
}
/** -32601 */
export class MethodNotFound extends RpcError {
  static readonly code: -32601;
  readonly data: { method: string };
}
/** -32602 */
export class InvalidParams extends RpcError {
  static readonly code: -32602;
  readonly data: { field: string; reason: string };
}
/** -32603 */
export class InternalError extends RpcError {
  static readonly code: -32603;
}
/** -32002 */
export class ServerNotInitialized extends RpcError {
  static readonly code: -32002;
}
/** -32800 */
export class RequestCancelled extends RpcError {
  static readonly code: -32800;
}
/** -32001 */
export class NotFound extends RpcError {
  static readonly code: -32001;
  readonly data: { resource: string; id: string | null };
}
/** -32009 */
export class Conflict extends RpcError {
  static readonly code: -32009;
  readonly data: { currentVersion: number };
}
/** -32020, retryable */
export class UpstreamUnavailable extends RpcError {
  static readonly code: -32020;
  readonly data: { service: string; retryable: true; reason?: string };
  readonly retryable: true;
}
/** -32021 */
export class UpstreamError extends RpcError {
  static readonly code: -32021;
  readonly data: { service: string; status?: number; upstreamMessage?: string };
}
/** -32030, retryable: a change was not saved, the disk that holds the data is full */
export class StorageFull extends RpcError {
  static readonly code: -32030;
  readonly data: { retryable: true; reason?: string };
  readonly retryable: true;
}

/** The error class of each well-known code. */
export const ERROR_CLASSES: ReadonlyMap<number, typeof RpcError>;
/** The error for a JSON-RPC error object: the subclass of its code, else a plain `RpcError`. */
export function errorFromWire(error: unknown, context?: { method?: string }): RpcError;

/** The daemon exited while a call was pending, or before it was made. */
export class DaemonExitedError extends CatalogdError {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The last lines of the daemon's stderr. */
  readonly stderrTail: string;
  readonly method: string | undefined;
}
/** No daemon binary was found, or it could not be run. */
export class DaemonStartError extends CatalogdError {
  /** The binary the client tried to run; null when none was found. */
  readonly binary: string | null;
}
/** No reply within the time limit; `$/cancelRequest` was sent. */
export class RequestTimeoutError extends CatalogdError {
  readonly method: string;
  readonly id: number;
  readonly timeout: number;
}
/** A call after `close()`. */
export class ClientClosedError extends CatalogdError {
  readonly method: string | undefined;
}
/** The daemon sent something that is not JSON-RPC (reported to `onError`). */
export class ProtocolError extends CatalogdError {
  readonly raw: string | undefined;
}
/** A feed's notification did not fit its items; the feed reloads them (a `desync` event carries it). */
export class FeedOutOfSyncError extends ProtocolError {
  readonly feedId: string | null;
  readonly reason: string;
}
