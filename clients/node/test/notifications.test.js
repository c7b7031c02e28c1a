// Notifications: handlers with disposers, and the async iterator.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DaemonExitedError } from '../src/index.js';
import { rejection, startClient } from '../test-support/helpers.js';

test('quotes/loading true then false reach on() before the quote', async (t) => {
  const { client } = await startClient(t);
  const seen = [];
  client.on('quotes/loading', (params, method) => seen.push([method, params]));
  const quote = client.quotesRandom().then((q) => {
    seen.push(['reply', q.id]);
    return q;
  });
  const { id } = await quote;
  assert.deepEqual(seen, [
    ['quotes/loading', { isLoading: true }],
    ['quotes/loading', { isLoading: false }],
    ['reply', id],
  ]);
});

test('the disposer removes the handler, once and only its own', async (t) => {
  const { client } = await startClient(t);
  const a = [];
  const b = [];
  const handler = (p) => a.push(p.isLoading);
  const disposeA = client.on('quotes/loading', handler);
  const disposeA2 = client.on('quotes/loading', handler); // the same function twice: called twice
  client.on('quotes/loading', (p) => b.push(p.isLoading));
  await client.quotesRandom();
  assert.deepEqual(a, [true, true, false, false]);
  disposeA();
  disposeA(); // harmless
  await client.quotesRandom();
  assert.deepEqual(a, [true, true, false, false, true, false]);
  disposeA2[Symbol.dispose]();
  await client.quotesRandom();
  assert.equal(a.length, 6, 'no more calls after both disposers ran');
  assert.deepEqual(b, [true, false, true, false, true, false]);
});

test("'*' receives every notification", async (t) => {
  const { client } = await startClient(t);
  const methods = [];
  const dispose = client.on('*', (_params, method) => methods.push(method));
  await client.quotesRandom();
  dispose();
  await client.quotesRandom();
  assert.deepEqual(methods, ['quotes/loading', 'quotes/loading']);
});

test('a handler that throws is reported to onError and does not stop the others', async (t) => {
  const errors = [];
  const { client } = await startClient(t, { onError: (e) => errors.push(e) });
  const seen = [];
  client.on('quotes/loading', () => {
    throw new Error('boom');
  });
  client.on('quotes/loading', (p) => seen.push(p.isLoading));
  await client.quotesRandom();
  assert.deepEqual(seen, [true, false]);
  assert.deepEqual(
    errors.map((e) => e.message),
    ['boom', 'boom'],
  );
});

test('the async iterator yields quotes/loading in order', async (t) => {
  const { client } = await startClient(t);
  const stream = client.notifications('quotes/loading');
  await client.quotesRandom();
  await client.quotesRandom();
  const got = [];
  for await (const { method, params } of stream) {
    assert.equal(method, 'quotes/loading');
    got.push(params.isLoading);
    if (got.length === 4) break;
  }
  assert.deepEqual(got, [true, false, true, false]);
});

test('the iterator waits for notifications to come', async (t) => {
  const { client } = await startClient(t);
  const iterator = client[Symbol.asyncIterator]();
  const first = iterator.next(); // before the request
  await client.quotesRandom();
  assert.deepEqual(await first, { value: { method: 'quotes/loading', params: { isLoading: true } }, done: false });
  assert.deepEqual((await iterator.next()).value.params, { isLoading: false });
  await iterator.return();
  assert.deepEqual(await iterator.next(), { value: undefined, done: true });
});

test('a filter keeps only the named notifications', async (t) => {
  const { client } = await startClient(t);
  const none = client.notifications(['$/progress']);
  const loading = client.notifications(['quotes/loading']);
  await client.quotesRandom();
  await client.close();
  const got = [];
  for await (const n of loading) got.push(n.params.isLoading);
  assert.deepEqual(got, [true, false]);
  for await (const n of none) assert.fail(`unexpected ${n.method}`);
});

test('the iteration ends when the client closes', async (t) => {
  const { client } = await startClient(t);
  const stream = client.notifications();
  const pending = stream.next();
  await client.close();
  assert.deepEqual(await pending, { value: undefined, done: true });
  // An iterator made after close is already done.
  assert.deepEqual(await client.notifications().next(), { value: undefined, done: true });
});

test('the iteration throws DaemonExitedError when the daemon dies', async (t) => {
  const { client } = await startClient(t);
  const stream = client.notifications();
  const pending = stream.next();
  process.kill(client.pid, 'SIGKILL');
  const error = await rejection(pending);
  assert.ok(error instanceof DaemonExitedError, String(error));
  assert.equal(error.signal, 'SIGKILL');
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
});

test('an AbortSignal ends the iteration with its reason', async (t) => {
  const { client } = await startClient(t);
  const controller = new AbortController();
  const stream = client.notifications('quotes/loading', { signal: controller.signal });
  await client.quotesRandom();
  controller.abort();
  // Queued notifications are still delivered, then the reason is thrown.
  assert.equal((await stream.next()).value.params.isLoading, true);
  assert.equal((await stream.next()).value.params.isLoading, false);
  const error = await rejection(stream.next());
  assert.equal(error.name, 'AbortError');
  // Unsubscribed: later notifications are not queued.
  await client.quotesRandom();
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
  // An already aborted signal ends it at once.
  const error2 = await rejection(client.notifications(undefined, { signal: AbortSignal.abort() }).next());
  assert.equal(error2.name, 'AbortError');
});
