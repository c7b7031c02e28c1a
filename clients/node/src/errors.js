// Errors of the catalogd client.
//
// A JSON-RPC error reply becomes a `CatalogdError` carrying the wire `code`,
// `message` and `data`; every well-known code has its own subclass so that
// callers can write `err instanceof NotFound`. Errors that did not come from
// the daemon's reply (it exited, the call timed out, the client was closed)
// have their own classes and are not `CatalogdError`s.

/** An error reply of the daemon: `code`, `message` and `data` as sent. */
export class CatalogdError extends Error {
  /**
   * @param {number} code the JSON-RPC error code
   * @param {string} message the one-sentence message of the daemon
   * @param {unknown} [data] the machine-readable detail, when the daemon sent one
   * @param {{method?: string}} [context]
   */
  constructor(code, message, data, context = {}) {
    super(message);
    this.name = new.target.name;
    /** @type {number} */
    this.code = code;
    /** @type {unknown} */
    this.data = data;
    /** The method of the request that failed, when known. */
    this.method = context.method;
  }

  /** True when trying again later may succeed. */
  get retryable() {
    return false;
  }

  /** The error object as it was on the wire. */
  toJSON() {
    const error = { code: this.code, message: this.message };
    if (this.data !== undefined) error.data = this.data;
    return error;
  }
}

/** -32700: bad framing, bad JSON, a message too large or too deep. */
export class ParseError extends CatalogdError {
  static code = -32700;
}
/** -32600: not a valid request, an empty batch, a request after shutdown. */
export class InvalidRequest extends CatalogdError {
  static code = -32600;
}
/** -32601: the daemon does not know the method; `data.method` names it. */
export class MethodNotFound extends CatalogdError {
  static code = -32601;
}
/** -32602: a param is missing, of the wrong type or out of range; `data: {field, reason}`. */
export class InvalidParams extends CatalogdError {
  static code = -32602;
}
/** -32603: the daemon failed; the details are on its stderr. */
export class InternalError extends CatalogdError {
  static code = -32603;
}
/** -32002: a request before `initialize`. */
export class ServerNotInitialized extends CatalogdError {
  static code = -32002;
}
/** -32800: the request was cancelled with `$/cancelRequest`. */
export class RequestCancelled extends CatalogdError {
  static code = -32800;
}
/** -32001: no such resource; `data: {resource, id}` (`id` null when a filter matched nothing). */
export class NotFound extends CatalogdError {
  static code = -32001;
}
/** -32009: a stale `expectedVersion`; `data.currentVersion`. */
export class Conflict extends CatalogdError {
  static code = -32009;
}
/** -32020: the upstream could not be reached (connect, TLS, DNS, timeout); retry later. */
export class UpstreamUnavailable extends CatalogdError {
  static code = -32020;
  get retryable() {
    return true;
  }
}
/** -32021: the upstream answered badly; `data: {service, status?, upstreamMessage?}`. */
export class UpstreamError extends CatalogdError {
  static code = -32021;
}

/** -32030: a change was not saved: the disk that holds the daemon's data is full; retry after freeing space. */
export class StorageFull extends CatalogdError {
  static code = -32030;
  get retryable() {
    return true;
  }
}

/** The error class of each well-known code. */
export const ERROR_CLASSES = Object.freeze(
  new Map(
    [
      ParseError,
      InvalidRequest,
      MethodNotFound,
      InvalidParams,
      InternalError,
      ServerNotInitialized,
      RequestCancelled,
      NotFound,
      Conflict,
      UpstreamUnavailable,
      UpstreamError,
      StorageFull,
    ].map((cls) => [cls.code, cls]),
  ),
);

/**
 * The error for a JSON-RPC error object: the subclass of its code, else a
 * plain `CatalogdError`. A malformed error object still gives an error.
 * @param {unknown} error the `error` member of a reply
 * @param {{method?: string}} [context]
 * @returns {CatalogdError}
 */
export function errorFromWire(error, context = {}) {
  const object = error !== null && typeof error === 'object' ? /** @type {any} */ (error) : {};
  const code = Number.isInteger(object.code) ? object.code : -32603;
  const message =
    typeof object.message === 'string' ? object.message : `catalogd sent a malformed error: ${JSON.stringify(error)}`;
  const ErrorClass = ERROR_CLASSES.get(code) ?? CatalogdError;
  return new ErrorClass(code, message, object.data, context);
}

/** The daemon exited (or could not be started) while a call was pending, or before it was made. */
export class DaemonExitedError extends Error {
  /**
   * @param {{exitCode: number | null, signal: string | null, stderrTail: string, method?: string, cause?: unknown}} info
   */
  constructor({ exitCode, signal, stderrTail, method, cause }) {
    const how = signal ? `was killed by ${signal}` : `exited with status ${exitCode}`;
    const during = method ? ` while ${method} was pending` : '';
    const tail = stderrTail ? `; the end of its stderr:\n${indent(stderrTail)}` : '; its stderr was empty';
    super(`catalogd ${how}${during}${tail}`, cause === undefined ? undefined : { cause });
    this.name = 'DaemonExitedError';
    /** The exit status, or null when a signal ended the process. */
    this.exitCode = exitCode;
    /** The signal that ended the process (`'SIGKILL'`), or null. */
    this.signal = signal;
    /** The last lines the daemon wrote on stderr (its logs): why it exited, usually. */
    this.stderrTail = stderrTail;
    /** The method of the call that failed, when the error is a call's. */
    this.method = method;
  }
}

/** The daemon could not be started: the binary is missing or not executable. */
export class DaemonStartError extends Error {
  /** @param {string} message @param {{binary: string, cause?: unknown}} info */
  constructor(message, { binary, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DaemonStartError';
    /** The binary the client tried to run. */
    this.binary = binary;
  }
}

/** A call got no reply in time; the client sent `$/cancelRequest` for it. */
export class RequestTimeoutError extends Error {
  /** @param {{method: string, id: number, timeout: number}} info */
  constructor({ method, id, timeout }) {
    super(`catalogd did not answer ${method} within ${timeout} ms; the request was cancelled`);
    this.name = 'RequestTimeoutError';
    /** The method of the request. */
    this.method = method;
    /** The JSON-RPC id of the request. */
    this.id = id;
    /** The time limit, in milliseconds. */
    this.timeout = timeout;
  }
}

/** A call made after `close()` began. */
export class ClientClosedError extends Error {
  /** @param {string} [method] */
  constructor(method) {
    super(method ? `the catalogd client is closed; ${method} was not sent` : 'the catalogd client is closed');
    this.name = 'ClientClosedError';
    this.method = method;
  }
}

/** The daemon broke the protocol: a body that is not JSON, a bad header, a reply to no request. */
export class ProtocolError extends Error {
  /** @param {string} message @param {{raw?: string}} [info] */
  constructor(message, { raw } = {}) {
    super(message);
    this.name = 'ProtocolError';
    /** The offending text, shortened. */
    this.raw = raw;
  }
}

/**
 * A feed's notification did not fit the items held for it: a page that does
 * not start at the end of the list, an `itemsChanged` step outside the list or
 * a `count` other than the length after the steps, params that are not what
 * the schema says. The list stays as it was and the feed reloads it with
 * `feeds/items`. Not thrown to callers: the `Feed` emits it in a `'change'`
 * event of kind `'desync'`.
 */
export class FeedOutOfSyncError extends ProtocolError {
  /** @param {string | null} feedId @param {string} reason */
  constructor(feedId, reason) {
    super(feedId ? `feed ${feedId}: ${reason}; reloading its items` : `${reason}; reloading`);
    this.name = 'FeedOutOfSyncError';
    /** The feed. */
    this.feedId = feedId;
    /** What did not fit, in words. */
    this.reason = reason;
  }
}

/** @param {string} text */
function indent(text) {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
