// Errors of the catalogd client.
//
// Every error the client raises is a `CatalogdError`, so that one `catch`
// clause can tell the client's errors from the application's. Under it:
//
// - `RpcError`: a JSON-RPC error reply, carrying the wire `code`, `message`
//   and `data`; every well-known code has its own subclass so that callers can
//   write `err instanceof NotFound`.
// - the errors that did not come from a reply: the daemon exited or could not
//   be started, the call timed out, the client was closed, the daemon broke
//   the protocol.
// - `UsageError`: the client was called wrongly (a bad framing or timeout,
//   params that are neither an object nor an array), a bug to fix rather than
//   a condition to handle. It extends `TypeError`, which Node's own APIs throw
//   for such misuse, and counts as a `CatalogdError` too (JavaScript has one
//   base class per class: `CatalogdError` claims it with Symbol.hasInstance).

/** The root of every error the catalogd client raises. */
export class CatalogdError extends Error {
  /**
   * @param {string} [message]
   * @param {{cause?: unknown}} [options]
   */
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }

  /** `instanceof CatalogdError` holds for its subclasses and for `UsageError`. */
  static [Symbol.hasInstance](value) {
    if (this === CatalogdError && value instanceof UsageError) return true;
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * The client was called wrongly: an unknown framing, a negative timeout,
 * params that are neither an object nor an array, a handler that is not a
 * function. A `TypeError`, and a `CatalogdError`.
 */
export class UsageError extends TypeError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An error reply of the daemon: `code`, `message` and `data` as sent. */
export class RpcError extends CatalogdError {
  /**
   * @param {number} code the JSON-RPC error code
   * @param {string} message the one-sentence message of the daemon
   * @param {unknown} [data] the machine-readable detail, when the daemon sent one
   * @param {{method?: string}} [context]
   */
  constructor(code, message, data, context = {}) {
    super(message);
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
export class ParseError extends RpcError {
  static code = -32700;
}
/** -32600: not a valid request, an empty batch, a request after shutdown. */
export class InvalidRequest extends RpcError {
  static code = -32600;
}
/** -32601: the daemon does not know the method; `data.method` names it. */
export class MethodNotFound extends RpcError {
  static code = -32601;
}
/** -32602: a param is missing, of the wrong type or out of range; `data: {field, reason}`. */
export class InvalidParams extends RpcError {
  static code = -32602;
}
/** -32603: the daemon failed; the details are on its stderr. */
export class InternalError extends RpcError {
  static code = -32603;
}
/** -32002: a request before `initialize`. */
export class ServerNotInitialized extends RpcError {
  static code = -32002;
}
/** -32800: the request was cancelled with `$/cancelRequest`. */
export class RequestCancelled extends RpcError {
  static code = -32800;
}
/** -32001: no such resource; `data: {resource, id}` (`id` null when a filter matched nothing). */
export class NotFound extends RpcError {
  static code = -32001;
}
/** -32009: a stale `expectedVersion`; `data.currentVersion`. */
export class Conflict extends RpcError {
  static code = -32009;
}
/** -32020: the upstream could not be reached (connect, TLS, DNS, timeout); retry later. */
export class UpstreamUnavailable extends RpcError {
  static code = -32020;
  get retryable() {
    return true;
  }
}
/** -32021: the upstream answered badly; `data: {service, status?, upstreamMessage?}`. */
export class UpstreamError extends RpcError {
  static code = -32021;
}

/** -32030: a change was not saved: the disk that holds the daemon's data is full; retry after freeing space. */
export class StorageFull extends RpcError {
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
 * plain `RpcError`. A malformed error object still gives an error.
 * @param {unknown} error the `error` member of a reply
 * @param {{method?: string}} [context]
 * @returns {RpcError}
 */
export function errorFromWire(error, context = {}) {
  const object = error !== null && typeof error === 'object' ? /** @type {any} */ (error) : {};
  const code = Number.isInteger(object.code) ? object.code : -32603;
  const message =
    typeof object.message === 'string' ? object.message : `catalogd sent a malformed error: ${JSON.stringify(error)}`;
  const ErrorClass = ERROR_CLASSES.get(code) ?? RpcError;
  return new ErrorClass(code, message, object.data, context);
}

/** The daemon exited (or could not be started) while a call was pending, or before it was made. */
export class DaemonExitedError extends CatalogdError {
  /**
   * @param {{exitCode: number | null, signal: string | null, stderrTail: string, method?: string, cause?: unknown}} info
   */
  constructor({ exitCode, signal, stderrTail, method, cause }) {
    const how = signal ? `was killed by ${signal}` : `exited with status ${exitCode}`;
    const during = method ? ` while ${method} was pending` : '';
    const tail = stderrTail ? `; the end of its stderr:\n${indent(stderrTail)}` : '; its stderr was empty';
    super(`catalogd ${how}${during}${tail}`, cause === undefined ? undefined : { cause });
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
export class DaemonStartError extends CatalogdError {
  /** @param {string} message @param {{binary: string, cause?: unknown}} info */
  constructor(message, { binary, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    /** The binary the client tried to run. */
    this.binary = binary;
  }
}

/** A call got no reply in time; the client sent `$/cancelRequest` for it. */
export class RequestTimeoutError extends CatalogdError {
  /** @param {{method: string, id: number, timeout: number}} info */
  constructor({ method, id, timeout }) {
    super(`catalogd did not answer ${method} within ${timeout} ms; the request was cancelled`);
    /** The method of the request. */
    this.method = method;
    /** The JSON-RPC id of the request. */
    this.id = id;
    /** The time limit, in milliseconds. */
    this.timeout = timeout;
  }
}

/** A call made after `close()` began. */
export class ClientClosedError extends CatalogdError {
  /** @param {string} [method] */
  constructor(method) {
    super(method ? `the catalogd client is closed; ${method} was not sent` : 'the catalogd client is closed');
    this.method = method;
  }
}

/** The daemon broke the protocol: a body that is not JSON, a bad header, a reply to no request. */
export class ProtocolError extends CatalogdError {
  /** @param {string} message @param {{raw?: string}} [info] */
  constructor(message, { raw } = {}) {
    super(message);
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
