// Every error the client raises is a CatalogdError; error replies are
// RpcError subclasses carrying code, message and data.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import {
  CatalogdError,
  Client,
  ClientClosedError,
  Conflict,
  DaemonExitedError,
  DaemonStartError,
  FeedOutOfSyncError,
  ERROR_CLASSES,
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
} from '../src/index.js';
import { rejection, startClient } from '../test-support/helpers.js';

test('invalid params: InvalidParams with {field, reason}', async (t) => {
  const { client } = await startClient(t);
  const error = await rejection(client.quotesList({ limit: 1000 }));
  assert.ok(error instanceof InvalidParams, String(error));
  assert.ok(error instanceof RpcError);
  assert.ok(error instanceof CatalogdError);
  assert.equal(error.name, 'InvalidParams');
  assert.equal(error.code, -32602);
  assert.equal(error.method, 'quotes/list');
  assert.equal(error.data.field, 'limit');
  assert.match(error.data.reason, /between 1 and 100/);
  assert.match(error.message, /limit/);
  assert.equal(error.retryable, false);
  assert.deepEqual(error.toJSON(), { code: -32602, message: error.message, data: error.data });
});

test('no match: NotFound with {resource, id: null}', async (t) => {
  const { client } = await startClient(t);
  const error = await rejection(client.quotesRandom({ author: 'nobody-at-all-xyz' }));
  assert.ok(error instanceof NotFound, String(error));
  assert.equal(error.code, -32001);
  assert.deepEqual(error.data, { resource: 'quote', id: null });
});

test('unknown method: MethodNotFound with {method}', async (t) => {
  const { client } = await startClient(t);
  const error = await rejection(client.request('quotes/nope', {}));
  assert.ok(error instanceof MethodNotFound, String(error));
  assert.equal(error.code, -32601);
  assert.deepEqual(error.data, { method: 'quotes/nope' });
});

test('a request after shutdown: InvalidRequest with {reason}', async (t) => {
  const { client } = await startClient(t);
  assert.equal(await client.shutdown(), null);
  const error = await rejection(client.daemonEcho([1]));
  assert.ok(error instanceof InvalidRequest, String(error));
  assert.equal(typeof error.data.reason, 'string');
  const status = await client.close();
  assert.equal(status.exitCode, 0);
});

test('a second initialize: InvalidRequest, and the session goes on', async (t) => {
  const { client } = await startClient(t);
  const error = await rejection(client.initialize({ clientInfo: { name: 'again' } }));
  assert.ok(error instanceof InvalidRequest, String(error));
  assert.match(error.data.reason, /initialize/);
  assert.deepEqual(await client.daemonEcho([1]), [1]);
});

test('upstream unreachable: UpstreamUnavailable, retryable, with {service, retryable, reason}', async (t) => {
  const { client } = await startClient(t, {
    env: { CATALOGD_QUOTES_URL: 'http://127.0.0.1:1', CATALOGD_UPSTREAM_TIMEOUT_MS: '2000' },
  });
  const loading = [];
  client.on('quotes/loading', (p) => loading.push(p.isLoading));
  const error = await rejection(client.quotesRandom());
  assert.ok(error instanceof UpstreamUnavailable, String(error));
  assert.equal(error.code, -32020);
  assert.equal(error.retryable, true);
  assert.equal(error.data.service, 'quotes');
  assert.equal(error.data.retryable, true);
  assert.deepEqual(loading, [true, false], 'loading ends after a failure too');
});

test('upstream answers badly: UpstreamError with {service, status}', async (t) => {
  const server = createServer((req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 503, statusMessage: 'down for maintenance' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { client } = await startClient(t, { env: { CATALOGD_QUOTES_URL: `http://127.0.0.1:${server.address().port}` } });
  const error = await rejection(client.quotesList());
  assert.ok(error instanceof UpstreamError, String(error));
  assert.equal(error.code, -32021);
  assert.equal(error.data.service, 'quotes');
  assert.equal(error.data.status, 503);
  assert.equal(error.retryable, false);
});

test('each well-known code maps to its class', () => {
  const expected = {
    [-32700]: ParseError,
    [-32600]: InvalidRequest,
    [-32601]: MethodNotFound,
    [-32602]: InvalidParams,
    [-32603]: InternalError,
    [-32002]: ServerNotInitialized,
    [-32800]: RequestCancelled,
    [-32001]: NotFound,
    [-32009]: Conflict,
    [-32020]: UpstreamUnavailable,
    [-32021]: UpstreamError,
    [-32030]: StorageFull,
  };
  assert.equal(ERROR_CLASSES.size, Object.keys(expected).length);
  for (const [code, ErrorClass] of Object.entries(expected)) {
    const error = errorFromWire({ code: Number(code), message: 'm.', data: { x: 1 } }, { method: 'a/b' });
    assert.ok(error instanceof ErrorClass, `${code} → ${error.name}`);
    assert.ok(error instanceof RpcError);
    assert.ok(error instanceof CatalogdError);
    assert.equal(error.name, ErrorClass.name);
    assert.equal(error.code, Number(code));
    assert.equal(ErrorClass.code, Number(code));
    assert.deepEqual(error.data, { x: 1 });
    assert.equal(error.method, 'a/b');
  }
  const other = errorFromWire({ code: -1, message: 'custom' });
  assert.equal(other.constructor, RpcError);
  assert.equal(other.name, 'RpcError');
  assert.equal(other.code, -1);
  assert.equal(other.data, undefined);
  assert.deepEqual(other.toJSON(), { code: -1, message: 'custom' });
  const malformed = errorFromWire('oops');
  assert.ok(malformed instanceof InternalError);
  assert.match(malformed.message, /malformed error/);
});

test('CatalogdError is the root of every error the client raises, RpcError of the replies', async (t) => {
  const { client } = await startClient(t);
  const reply = await rejection(client.quotesRandom({ author: 'nobody-at-all-xyz' }));
  const timeout = await rejection(client.daemonSleep({ ms: 5000 }, { timeout: 50 }));
  const start = await rejection(Client.start({ binary: '/nonexistent/catalogd' }));
  const killed = await startClient(t);
  const pending = killed.client.daemonSleep({ ms: 30_000 });
  await killed.client.daemonEcho([1]);
  process.kill(killed.client.pid, 'SIGKILL');
  const exited = await rejection(pending);
  await client.close();
  const closed = await rejection(client.quotesRandom());
  const protocol = new ProtocolError('not JSON-RPC');
  const desync = new FeedOutOfSyncError('feed-1', 'a page that does not fit');

  const expected = [
    [reply, NotFound, true],
    [timeout, RequestTimeoutError, false],
    [start, DaemonStartError, false],
    [exited, DaemonExitedError, false],
    [closed, ClientClosedError, false],
    [protocol, ProtocolError, false],
    [desync, FeedOutOfSyncError, false],
  ];
  for (const [error, ErrorClass, isReply] of expected) {
    assert.ok(error instanceof ErrorClass, `${error} is a ${ErrorClass.name}`);
    assert.ok(error instanceof CatalogdError, `${ErrorClass.name} is a CatalogdError`);
    assert.ok(error instanceof Error);
    assert.equal(error instanceof RpcError, isReply, `${ErrorClass.name} is ${isReply ? '' : 'not '}an RpcError`);
    assert.equal(error.name, ErrorClass.name);
  }
  assert.equal(new CatalogdError('plain').name, 'CatalogdError');
  assert.equal(new CatalogdError('wrapped', { cause: reply }).cause, reply);
});

test('misuse found at run time is a UsageError: a TypeError, and a CatalogdError', async (t) => {
  const { client } = await startClient(t);
  for (const params of [5, 'text', true, null]) {
    const error = await rejection(client.request('daemon/echo', params));
    assert.ok(error instanceof UsageError, String(error));
    assert.ok(error instanceof TypeError);
    assert.ok(error instanceof CatalogdError);
    assert.ok(!(error instanceof RpcError));
    assert.equal(error.name, 'UsageError');
    assert.match(error.message, /params must be an object or an array/);
    assert.throws(() => client.notify('initialized', params), UsageError);
  }
  assert.deepEqual(await client.request('daemon/echo', [1]), [1], 'the session goes on');
  assert.throws(() => client.on('quotes/loading', 'not a function'), UsageError);
  for (const options of [{ framing: 'xml' }, { timeout: -1 }, { handshakeTimeout: 'soon' }, { stderr: 'loud' }, { binary: '' }]) {
    await assert.rejects(Client.start(options), (error) => error instanceof UsageError && error instanceof TypeError, JSON.stringify(options));
  }
  // Only UsageError joins the root that way: other TypeErrors are not the client's.
  assert.ok(!(new TypeError('x') instanceof CatalogdError));
  assert.ok(!(new UsageError('x') instanceof RpcError));
});
