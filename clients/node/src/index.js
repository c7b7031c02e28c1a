// catalogd: the Node.js client of the catalogd daemon (JSON-RPC 2.0 over
// stdin/stdout). See README.md.

export { Client, DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './client.js';
export { BUNDLED_BINARY, findBinary } from './binary.js';
export {
  CatalogdError,
  ClientClosedError,
  Conflict,
  DaemonExitedError,
  DaemonStartError,
  ERROR_CLASSES,
  FeedOutOfSyncError,
  InternalError,
  InvalidParams,
  InvalidRequest,
  MethodNotFound,
  NotFound,
  ParseError,
  ProtocolError,
  RequestCancelled,
  RequestTimeoutError,
  RpcError,
  ServerNotInitialized,
  StorageFull,
  UpstreamError,
  UpstreamUnavailable,
  UsageError,
  errorFromWire,
} from './errors.js';
export { Feed } from './feed.js';
export { FeedMirror, applyChanges } from './feed-mirror.js';
export { FRAMINGS } from './framing.js';
export { METHODS, SERVER_NOTIFICATIONS } from './methods.generated.js';
export { VERSION } from './version.js';
