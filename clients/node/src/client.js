// The catalogd client: starts the daemon, does the handshake, matches replies
// to requests, dispatches notifications, and fails every pending call with a
// clear error when the daemon exits.
//
// Reading and writing is the transport's job (framing.js); this file owns the
// process and the JSON-RPC state. Every request is settled exactly once: by
// its reply, its timeout, its AbortSignal, or the daemon's exit, whichever
// comes first; a reply that arrives after the caller gave up is dropped.

import { spawn } from 'node:child_process';

import { findBinary, notRunnableMessage } from './binary.js';
import {
  ClientClosedError,
  DaemonExitedError,
  DaemonStartError,
  ProtocolError,
  RequestTimeoutError,
  UsageError,
  errorFromWire,
} from './errors.js';
import { Feed, FeedRouter, OPEN } from './feed.js';
import { FRAMINGS, createDecoder, encodeMessage } from './framing.js';
import { CatalogdMethods } from './methods.generated.js';
import { VERSION } from './version.js';

/** Default time limit of one request, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default time limit of the `initialize` handshake, in milliseconds. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** Default time close() gives the daemon to exit before killing it, in milliseconds. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/** How much of the daemon's stderr the client keeps, in characters. */
const STDERR_KEEP_CHARS = 64 * 1024;
/** How many stderr lines a DaemonExitedError quotes. */
const STDERR_TAIL_LINES = 20;
/** After the process exits, how long to wait for its pipes to close (to get the last of stderr). */
const CLOSE_GRACE_MS = 100;
/** setTimeout's limit; longer time limits mean no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Created only by Client.start. */
const CONSTRUCT = Symbol('Client.start');

/**
 * A connection to one catalogd process. Create it with `await Client.start()`,
 * end it with `await client.close()`.
 */
export class Client extends CatalogdMethods {
  /** The child process. */
  #child;
  /** 'ndjson' or 'lsp'. */
  #framing;
  /** The default time limit of a request, ms (Infinity: none). */
  #timeout;
  /** Where errors without a caller go (a handler threw, the daemon broke the protocol). */
  #onError;
  /** The `trace` option: gets every message sent and received, or null. */
  #trace;
  /** What to do with stderr besides keeping its tail: null, 'inherit' or a per-line callback. */
  #stderrSink;
  /** The id of the next request. */
  #nextId = 1;
  /** Requests waiting for their reply, by id: {method, resolve, reject, settle, onReply}. */
  #pending = new Map();
  /** Ids of requests the caller gave up on (timeout, abort); their late reply is dropped. */
  #abandoned = new Set();
  /** Notification handlers by method; '*' receives every notification. */
  #handlers = new Map();
  /** Open notification iterators. */
  #streams = new Set();
  /** The retained end of the daemon's stderr. */
  #stderr = '';
  /** The unfinished last line of stderr, for the per-line callback. */
  #stderrLine = '';
  /** Set once close() is called: new calls are refused. */
  #closing = false;
  /** The promise of close(), so that it runs once. */
  #closed = null;
  /** Why the process could not be started, when it could not. */
  #startError = null;
  /** {exitCode, signal} once the process ended. */
  #exit = null;
  /** Resolves with {exitCode, signal} when the process ended and pending calls were failed. */
  #exited;
  #resolveExited;
  /** The `initialize` result. */
  #initializeResult = null;
  /** What the client lends its feeds ({router, call, report}); made by the first openFeed. */
  #feeds = null;

  /**
   * Use `Client.start()`.
   * @param {symbol} token
   * @param {import('./index.js').StartOptions} options
   */
  constructor(token, options) {
    if (token !== CONSTRUCT) throw new UsageError('use `await Client.start(options)` to create a catalogd Client');
    super();
    const framing = options.framing ?? 'ndjson';
    if (!FRAMINGS.includes(framing)) throw new UsageError(`framing must be one of ${FRAMINGS.join(', ')}, not ${framing}`);
    this.#framing = framing;
    this.#timeout = normalizeTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS, 'timeout');
    this.#onError = options.onError ?? defaultOnError;
    if (options.trace !== undefined && typeof options.trace !== 'function') {
      throw new UsageError("trace must be a function(direction: 'send' | 'receive', message)");
    }
    this.#trace = options.trace ?? null;
    const stderr = options.stderr ?? 'keep';
    if (!(stderr === 'keep' || stderr === 'inherit' || typeof stderr === 'function')) {
      throw new UsageError("stderr must be 'keep', 'inherit' or a function(line)");
    }
    this.#stderrSink = stderr === 'keep' ? null : stderr;
    this.#exited = new Promise((resolve) => (this.#resolveExited = resolve));

    const { binary, from } = findBinary(options.binary);
    const args = [...(options.args ?? [])];
    if (options.remote !== undefined) {
      if (typeof options.remote !== 'string' || options.remote === '') {
        throw new UsageError("remote must be 'auto' or the path of a shared daemon's socket");
      }
      args.push(`--remote=${options.remote}`);
    }
    // Forcing the framing makes the daemon ignore a CATALOGD_FRAMING that the
    // environment may carry (flags win over the environment).
    if (!args.some((arg) => arg === '--framing' || arg.startsWith('--framing='))) args.unshift('--framing', framing);
    this.binary = binary;

    this.#child = spawn(binary, args, {
      cwd: options.cwd,
      env: daemonEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.#attach(binary, from);
  }

  /**
   * Starts catalogd and does the `initialize` / `initialized` handshake.
   * The binary is `options.binary`, else `$CATALOGD_BIN`, else the one bundled
   * in this package, else `catalogd` on PATH.
   * @param {import('./index.js').StartOptions} [options]
   * @returns {Promise<Client>}
   */
  static async start(options = {}) {
    const handshakeTimeout = normalizeTimeout(options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS, 'handshakeTimeout');
    const client = new Client(CONSTRUCT, options);
    try {
      const params = { clientInfo: options.clientInfo ?? { name: 'catalogd-node', version: VERSION } };
      if (options.clientId !== undefined) params.clientId = options.clientId;
      if (options.locale !== undefined) params.locale = options.locale;
      client.#initializeResult = await client.#call('initialize', params, { timeout: handshakeTimeout });
      client.#send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    } catch (error) {
      await client.#kill();
      throw error;
    }
    return client;
  }

  /** The `initialize` result: `{serverInfo, clientId, capabilities}`. */
  get initializeResult() {
    return this.#initializeResult;
  }

  /** `{name: "catalogd", version}` of the daemon. */
  get serverInfo() {
    return this.#initializeResult?.serverInfo;
  }

  /** The services, limits and framings the daemon announced. */
  get capabilities() {
    return this.#initializeResult?.capabilities;
  }

  /** The client id the daemon uses (the one given to start, or the one persisted in its data dir). */
  get clientId() {
    return this.#initializeResult?.clientId;
  }

  /** The framing in use: 'ndjson' or 'lsp'. */
  get framing() {
    return this.#framing;
  }

  /** The daemon's process id. */
  get pid() {
    return this.#child.pid;
  }

  /** The last 64 KiB of what the daemon wrote on stderr (its logfmt logs). */
  get stderr() {
    return this.#stderr;
  }

  /** `{exitCode, signal}` once the daemon exited, else null. */
  get exitStatus() {
    return this.#exit;
  }

  /** Resolves with `{exitCode, signal}` when the daemon has exited (never rejects). */
  get exited() {
    return this.#exited;
  }

  /**
   * Sends a request and resolves with its result. Rejects with an
   * `RpcError` subclass for an error reply, `RequestTimeoutError` after
   * `timeout` ms, the signal's reason when `signal` aborts (both send
   * `$/cancelRequest`), `DaemonExitedError` when the daemon exits first, and
   * `ClientClosedError` once `close()` was called; with a `UsageError` (a
   * `TypeError`) for params that are neither an object nor an array.
   * @param {string} method
   * @param {unknown} [params] an object or an array; omitted from the message when undefined
   * @param {import('./index.js').RequestOptions} [options]
   * @returns {Promise<unknown>}
   */
  request(method, params, options = {}) {
    if (typeof method !== 'string') return Promise.reject(new UsageError('method must be a string'));
    if (!isParams(params)) return Promise.reject(paramsError(params));
    if (this.#closing) return Promise.reject(new ClientClosedError(method));
    return this.#call(method, params, options ?? {});
  }

  /**
   * `request` for a method the TypeScript types do not know (one a newer
   * daemon serves, a name computed at run time): the same call, typed
   * `(string, object?) => Promise<unknown>`.
   * @param {string} method
   * @param {unknown} [params]
   * @param {import('./index.js').RequestOptions} [options]
   * @returns {Promise<unknown>}
   */
  requestUntyped(method, params, options) {
    return this.request(method, params, options);
  }

  /**
   * Sends a notification (no reply). Throws `ClientClosedError` after
   * `close()`, `DaemonExitedError` when the daemon has exited.
   * @param {string} method
   * @param {unknown} [params]
   */
  notify(method, params) {
    if (typeof method !== 'string') throw new UsageError('method must be a string');
    if (!isParams(params)) throw paramsError(params);
    if (this.#closing) throw new ClientClosedError(method);
    if (this.#exit) throw this.#exitError(method);
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.#send(message);
  }

  /**
   * `notify` for a notification the TypeScript types do not know.
   * @param {string} method
   * @param {unknown} [params]
   */
  notifyUntyped(method, params) {
    this.notify(method, params);
  }

  /**
   * Calls `handler(params, method)` for every notification `method` from the
   * daemon (`'*'`: every notification), in arrival order, before the reply of
   * the request that caused it is delivered. Returns the function that removes
   * the handler (calling it twice is harmless; it is also a `Disposable`).
   * @param {string} method
   * @param {(params: any, method: string) => void} handler
   * @returns {(() => void) & Disposable}
   */
  on(method, handler) {
    if (typeof method !== 'string') throw new UsageError('method must be a string');
    if (typeof handler !== 'function') throw new UsageError('handler must be a function');
    let set = this.#handlers.get(method);
    if (!set) this.#handlers.set(method, (set = new Set()));
    // A wrapper, so that the same function registered twice is called twice
    // and each disposer removes its own registration.
    const entry = (params, name) => handler(params, name);
    set.add(entry);
    const dispose = () => {
      set.delete(entry);
      if (set.size === 0 && this.#handlers.get(method) === set) this.#handlers.delete(method);
    };
    dispose[Symbol.dispose] = dispose;
    return dispose;
  }

  /**
   * The notifications from now on as an async iterator of `{method, params}`.
   * `methods` keeps only those (a name or a list); `signal` ends the
   * iteration by rejecting with its reason. The iteration ends when the client
   * is closed and throws `DaemonExitedError` when the daemon exits on its own.
   * Leaving a `for await` loop unsubscribes. Notifications wait in memory
   * until they are read.
   * @param {string | string[]} [methods]
   * @param {{signal?: AbortSignal}} [options]
   * @returns {AsyncIterableIterator<{method: string, params: any}>}
   */
  notifications(methods, { signal } = {}) {
    const filter = methods === undefined ? null : new Set(typeof methods === 'string' ? [methods] : methods);
    const stream = new NotificationStream(filter, () => this.#streams.delete(stream));
    if (this.#exit) stream.end(this.#closing ? null : this.#exitError());
    else if (signal?.aborted) stream.end(signal.reason);
    else {
      this.#streams.add(stream);
      if (signal) {
        const onAbort = () => stream.end(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        stream.onEnd = () => signal.removeEventListener('abort', onAbort);
      }
    }
    return stream;
  }

  /**
   * Opens a feed of the daemon (feeds/open) as a `Feed`: a list of its items
   * that keeps itself up to date with the feed's notifications and emits
   * 'change' events.
   * @param {string} source 'photos', 'products', 'places' or 'quotes'
   * @param {import('./index.js').OpenFeedOptions} [options]
   * @returns {Promise<Feed>}
   */
  openFeed(source, options = {}) {
    if (this.#closing) return Promise.reject(new ClientClosedError('feeds/open'));
    this.#feeds ??= {
      router: new FeedRouter((method, handler) => this.on(method, handler)),
      call: (method, params, callOptions, onReply) => this.#call(method, params, callOptions, onReply),
      report: (error) => this.#report(error),
    };
    return Feed[OPEN](this, this.#feeds, source, options);
  }

  /** Every notification, as `notifications()`. */
  [Symbol.asyncIterator]() {
    return this.notifications();
  }

  /**
   * Ends the session: cancels the calls still pending (they fail with
   * `RequestCancelled`, since the daemon answers `shutdown` only after every
   * earlier request), then `shutdown`, `exit`, and waits for the process to
   * end (it is killed when it has not ended after `timeout` ms). New calls are
   * refused at once. Safe to call more than once and after the daemon died.
   * @param {{timeout?: number}} [options]
   * @returns {Promise<{exitCode: number | null, signal: string | null}>}
   */
  close({ timeout = DEFAULT_CLOSE_TIMEOUT_MS } = {}) {
    this.#closing = true;
    this.#closed ??= this.#shutdown(normalizeTimeout(timeout, 'timeout'));
    return this.#closed;
  }

  /** `await using client = await Client.start()` closes the client at the end of the block. */
  [Symbol.asyncDispose]() {
    return this.close().then(() => undefined);
  }

  async #shutdown(timeout) {
    if (!this.#exit) {
      for (const id of this.#pending.keys()) {
        this.#send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
      }
      try {
        await this.#call('shutdown', undefined, { timeout });
      } catch {
        // Already shut down (InvalidRequest), dead, or not answering: exit,
        // end of input or the kill below ends it.
      }
      this.#send({ jsonrpc: '2.0', method: 'exit' });
      this.#child.stdin.end();
      if (!(await within(this.#exited, timeout))) await this.#kill();
    }
    return this.#exited;
  }

  /** Kills the daemon and waits until it is gone. */
  async #kill() {
    if (!this.#exit && this.#child.pid !== undefined) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  /**
   * `onReply(message)`, when given, runs as the reply is read: in stream
   * order, before the notifications after it and before the promise settles
   * (not when the call gave up first).
   */
  #call(method, params, { signal, timeout }, onReply = null) {
    if (this.#exit) return Promise.reject(this.#exitError(method));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const limit = timeout === undefined ? this.#timeout : normalizeTimeout(timeout, 'timeout');
    const id = this.#nextId++;
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    let body;
    try {
      body = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      let timer = null;
      const onAbort = () => this.#giveUp(id, signal.reason);
      const settle = () => {
        this.#pending.delete(id);
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#pending.set(id, { method, resolve, reject, settle, onReply });
      if (limit !== Infinity) {
        timer = setTimeout(() => this.#giveUp(id, new RequestTimeoutError({ method, id, timeout: limit })), limit);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#write(message, body);
    });
  }

  /** Fails a pending request with `reason` and asks the daemon to stop it. */
  #giveUp(id, reason) {
    const entry = this.#pending.get(id);
    if (!entry) return;
    entry.settle();
    this.#abandoned.add(id);
    if (!this.#exit) this.#send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
    entry.reject(reason);
  }

  #send(message) {
    this.#write(message, JSON.stringify(message));
  }

  /** Writes `message`, already serialized as `body`, and traces it. */
  #write(message, body) {
    const stdin = this.#child.stdin;
    if (this.#exit || stdin.writableEnded || stdin.destroyed) return;
    // Node buffers what the pipe does not take yet; the daemon reads again as
    // soon as it has room (its in-flight limit pushes back on us, by design).
    stdin.write(encodeMessage(this.#framing, body));
    this.#traceMessage('send', message);
  }

  /** Hands a message to the `trace` option; a trace that throws goes to onError, the session goes on. */
  #traceMessage(direction, message) {
    if (!this.#trace) return;
    try {
      this.#trace(direction, message);
    } catch (error) {
      this.#report(error);
    }
  }

  #attach(binary, from) {
    const child = this.#child;
    const decoder = createDecoder(this.#framing);
    child.stdout.on('data', (chunk) => {
      const { bodies, errors } = decoder.push(chunk);
      for (const error of errors) this.#report(new ProtocolError(`catalogd sent ${error}`));
      for (const body of bodies) this.#receive(body);
    });
    child.stdout.on('end', () => {
      const rest = decoder.rest();
      if (rest.trim() !== '') {
        this.#report(new ProtocolError('catalogd stdout ended inside a message', { raw: shorten(rest) }));
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => this.#onStderr(text));
    // Write errors (EPIPE once the daemon is gone) are reported through the exit.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});

    let graceTimer = null;
    const finish = (exitCode, signal) => {
      if (graceTimer) clearTimeout(graceTimer);
      this.#finish(exitCode, signal);
    };
    child.on('error', (error) => {
      if (child.pid === undefined) {
        // The process never started.
        this.#startError = new DaemonStartError(notRunnableMessage(binary, from, error), { binary, cause: error });
        finish(null, null);
      }
    });
    child.on('exit', (exitCode, signal) => {
      // 'close' follows once stdout and stderr are drained; wait a little for
      // it so that the error quotes the last of stderr, but not for long: a
      // grandchild holding the pipes must not delay the failure of pending calls.
      graceTimer = setTimeout(() => finish(exitCode, signal), CLOSE_GRACE_MS);
      graceTimer.unref?.();
    });
    child.on('close', (exitCode, signal) => finish(exitCode, signal));
  }

  #finish(exitCode, signal) {
    if (this.#exit) return;
    this.#exit = { exitCode: this.#startError ? null : exitCode, signal: this.#startError ? null : signal };
    if (this.#stderrLine !== '') this.#emitStderrLine(this.#stderrLine);
    for (const [, entry] of this.#pending) {
      entry.settle();
      entry.reject(this.#exitError(entry.method));
    }
    const streamError = this.#closing ? null : this.#exitError();
    for (const stream of this.#streams) stream.end(streamError);
    this.#streams.clear();
    this.#resolveExited(this.#exit);
  }

  #exitError(method) {
    if (this.#startError) return this.#startError;
    return new DaemonExitedError({ ...this.#exit, stderrTail: this.stderrTail(), method });
  }

  /**
   * The last `lines` lines of the daemon's stderr.
   * @param {number} [lines]
   */
  stderrTail(lines = STDERR_TAIL_LINES) {
    const all = this.#stderr.replace(/\n$/, '').split('\n');
    return all.slice(-lines).join('\n');
  }

  #onStderr(text) {
    this.#stderr += text;
    if (this.#stderr.length > STDERR_KEEP_CHARS) {
      const cut = this.#stderr.indexOf('\n', this.#stderr.length - STDERR_KEEP_CHARS);
      this.#stderr = this.#stderr.slice(cut === -1 ? this.#stderr.length - STDERR_KEEP_CHARS : cut + 1);
    }
    if (this.#stderrSink === 'inherit') process.stderr.write(text);
    else if (this.#stderrSink) {
      const lines = (this.#stderrLine + text).split('\n');
      this.#stderrLine = lines.pop();
      for (const line of lines) this.#emitStderrLine(line);
    }
  }

  #emitStderrLine(line) {
    this.#stderrLine = '';
    if (typeof this.#stderrSink !== 'function') return;
    try {
      this.#stderrSink(line);
    } catch (error) {
      this.#report(error);
    }
  }

  #receive(body) {
    let message;
    try {
      message = JSON.parse(body);
    } catch {
      this.#report(new ProtocolError('catalogd sent a message that is not JSON', { raw: shorten(body) }));
      return;
    }
    for (const one of Array.isArray(message) ? message : [message]) {
      this.#traceMessage('receive', one);
      this.#dispatch(one, body);
    }
  }

  #dispatch(message, body) {
    if (message === null || typeof message !== 'object' || message.jsonrpc !== '2.0') {
      this.#report(new ProtocolError('catalogd sent something that is not a JSON-RPC 2.0 message', { raw: shorten(body) }));
      return;
    }
    if (typeof message.method === 'string') {
      if ('id' in message) {
        // The daemon sends no requests today; answer as JSON-RPC asks.
        this.#send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: `The client does not handle ${message.method}.`, data: { method: message.method } },
        });
      } else {
        this.#notification(message.method, message.params);
      }
      return;
    }
    const entry = this.#pending.get(message.id);
    if (!entry) {
      if (!this.#abandoned.delete(message.id)) {
        const what = message.id === null ? 'an error about an unreadable message' : `a reply to no pending request (id ${JSON.stringify(message.id)})`;
        this.#report(new ProtocolError(`catalogd sent ${what}`, { raw: shorten(body) }));
      }
      return;
    }
    entry.settle();
    if (entry.onReply) {
      try {
        entry.onReply(message);
      } catch (error) {
        this.#report(error);
      }
    }
    if ('error' in message) entry.reject(errorFromWire(message.error, { method: entry.method }));
    else entry.resolve(message.result);
  }

  #notification(method, params) {
    for (const key of [method, '*']) {
      const set = this.#handlers.get(key);
      if (!set) continue;
      for (const handler of [...set]) {
        try {
          handler(params, method);
        } catch (error) {
          this.#report(error);
        }
      }
    }
    for (const stream of this.#streams) stream.push({ method, params });
  }

  #report(error) {
    try {
      this.#onError(error);
    } catch {
      // An onError that throws has nowhere to report to.
    }
  }
}

/** An async iterator of notifications, fed by the client. */
class NotificationStream {
  /** Notifications not yet read. */
  #queue = [];
  /** Index of the first unread notification in #queue. */
  #head = 0;
  /** Readers waiting for a notification: {resolve, reject}. */
  #waiters = [];
  /** Set once the stream ended; `error` is thrown after the queue drained. */
  #ended = false;
  #error = null;
  #filter;
  #detach;
  /** Called once when the stream ends (removes an abort listener). */
  onEnd = null;

  constructor(filter, detach) {
    this.#filter = filter;
    this.#detach = detach;
  }

  push(notification) {
    if (this.#ended || (this.#filter && !this.#filter.has(notification.method))) return;
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve({ value: notification, done: false });
    else this.#queue.push(notification);
  }

  end(error) {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error ?? null;
    this.#detach();
    this.onEnd?.();
    // The error is thrown once: to the readers waiting now, else to the
    // next read after the queued notifications.
    const waiters = this.#waiters.splice(0);
    for (const waiter of waiters) {
      if (this.#error) waiter.reject(this.#error);
      else waiter.resolve({ value: undefined, done: true });
    }
    if (waiters.length > 0) this.#error = null;
  }

  next() {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#ended) {
      const error = this.#error;
      this.#error = null;
      return error ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  return() {
    this.#queue = [];
    this.#head = 0;
    this.end(null);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * The daemon's environment: this process's, with `env` laid over it; a
 * variable given as undefined or null is removed (`{LANG: null}`).
 * @param {Record<string, string | null | undefined> | undefined} env
 */
function daemonEnvironment(env) {
  if (env === undefined) return process.env;
  if (env === null || typeof env !== 'object') throw new UsageError('env must be an object of variables');
  const result = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === null) delete result[name];
    else result[name] = String(value);
  }
  return result;
}

/** JSON-RPC params are an object or an array; undefined leaves them out. */
function isParams(params) {
  return params === undefined || (params !== null && typeof params === 'object');
}

function paramsError(params) {
  const what = params === null ? 'null' : typeof params;
  return new UsageError(
    `params must be an object or an array (JSON-RPC sends nothing else), or undefined to send none; not ${what}`,
  );
}

/** Infinity for "no limit" (0 or Infinity, or more than a timer can wait); else the number. */
function normalizeTimeout(value, name) {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new UsageError(`${name} must be a number of milliseconds (0 or Infinity: no limit)`);
  }
  return value === 0 || value > MAX_TIMER_MS ? Infinity : value;
}

/** True when `promise` settles within `ms`. */
async function within(promise, ms) {
  if (ms === Infinity) {
    await promise;
    return true;
  }
  let timer;
  const expired = new Promise((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function defaultOnError(error) {
  process.emitWarning(error);
}

function shorten(text) {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
