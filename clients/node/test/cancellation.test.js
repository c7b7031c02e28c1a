// Timeouts and AbortSignals reject the call and send $/cancelRequest.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RequestTimeoutError } from '../src/index.js';
import { eventually, rejection, startClient } from '../test-support/helpers.js';

/** The ids of the $/cancelRequest notifications the daemon received. */
function cancelledIds(trace) {
  return trace()
    .filter((e) => e.dir === '<-' && e.message?.method === '$/cancelRequest')
    .map((e) => e.message.params.id);
}

/** The id the client gave the request of `method` (the last one). */
function requestId(trace, method) {
  const sent = trace().filter((e) => e.dir === '<-' && e.message?.method === method);
  assert.ok(sent.length > 0, `${method} was sent`);
  return sent.at(-1).message.id;
}

test('a timeout rejects with RequestTimeoutError and cancels the request in the daemon', async (t) => {
  const errors = [];
  const { client, trace } = await startClient(t, { onError: (e) => errors.push(e) });
  const started = Date.now();
  const error = await rejection(client.daemonSleep({ ms: 10_000 }, { timeout: 150 }));
  const elapsed = Date.now() - started;
  assert.ok(error instanceof RequestTimeoutError, String(error));
  assert.equal(error.method, 'daemon/sleep');
  assert.equal(error.timeout, 150);
  assert.match(error.message, /daemon\/sleep within 150 ms/);
  assert.ok(elapsed >= 140 && elapsed < 2000, `rejected after ${elapsed} ms`);

  const id = requestId(trace, 'daemon/sleep');
  assert.equal(error.id, id);
  await eventually(() => cancelledIds(trace).includes(id), 3000, '$/cancelRequest in the trace');
  // The daemon ends the sleep with -32800; the client drops that late reply quietly.
  await eventually(
    () => trace().some((e) => e.dir === '->' && e.message?.id === id && e.message.error?.code === -32800),
    3000,
    'the -32800 reply',
  );
  const status = await client.daemonStatus();
  assert.equal(status.requests.cancelled, 1);
  assert.equal(status.inFlight, 0, 'the sleep ended in the daemon');
  assert.deepEqual(errors, []);
});

test('the client-wide timeout applies, and a per-call timeout of 0 lifts it', async (t) => {
  const { client } = await startClient(t, { timeout: 100 });
  assert.ok((await rejection(client.daemonSleep({ ms: 5000 }))) instanceof RequestTimeoutError);
  assert.deepEqual(await client.daemonSleep({ ms: 200 }, { timeout: 0 }), { slept: 200 });
  assert.deepEqual(await client.daemonSleep({ ms: 200 }, { timeout: Infinity }), { slept: 200 });
});

test('an AbortSignal rejects with its reason and sends $/cancelRequest', async (t) => {
  const errors = [];
  const { client, trace } = await startClient(t, { onError: (e) => errors.push(e) });
  const controller = new AbortController();
  const call = client.daemonSleep({ ms: 10_000 }, { signal: controller.signal });
  await eventually(() => trace().some((e) => e.message?.method === 'daemon/sleep'), 3000, 'the request to be sent');
  const started = Date.now();
  controller.abort();
  const error = await rejection(call);
  assert.ok(Date.now() - started < 500);
  assert.equal(error, controller.signal.reason);
  assert.equal(error.name, 'AbortError');
  const id = requestId(trace, 'daemon/sleep');
  await eventually(() => cancelledIds(trace).includes(id), 3000, '$/cancelRequest in the trace');
  await eventually(async () => (await client.daemonStatus()).requests.cancelled === 1, 3000, 'the daemon to cancel');
  assert.deepEqual(errors, []);
});

test('an abort reason of the caller is kept', async (t) => {
  const { client } = await startClient(t);
  const controller = new AbortController();
  const call = client.daemonSleep({ ms: 10_000 }, { signal: controller.signal });
  const reason = new Error('the user went away');
  setTimeout(() => controller.abort(reason), 20);
  assert.equal(await rejection(call), reason);
});

test('an already aborted signal rejects at once and sends nothing', async (t) => {
  const { client, trace } = await startClient(t);
  const error = await rejection(client.quotesRandom({}, { signal: AbortSignal.abort() }));
  assert.equal(error.name, 'AbortError');
  await client.daemonEcho(['sync']);
  assert.equal(trace().filter((e) => e.message?.method === 'quotes/random').length, 0);
  assert.deepEqual(cancelledIds(trace), []);
});

test('AbortSignal.timeout works as a signal', async (t) => {
  const { client } = await startClient(t);
  const error = await rejection(client.daemonSleep({ ms: 10_000 }, { signal: AbortSignal.timeout(50) }));
  assert.equal(error.name, 'TimeoutError');
});

test('an abort after the reply changes nothing', async (t) => {
  const { client, trace } = await startClient(t);
  const controller = new AbortController();
  assert.deepEqual(await client.daemonEcho([1], { signal: controller.signal, timeout: 50 }), [1]);
  controller.abort();
  await new Promise((r) => setTimeout(r, 100)); // past the timeout too
  await client.daemonEcho(['sync']);
  assert.deepEqual(cancelledIds(trace), []);
});

test('a cancelled request does not disturb the others', async (t) => {
  const { client } = await startClient(t);
  const controller = new AbortController();
  const cancelled = client.daemonSleep({ ms: 5000 }, { signal: controller.signal });
  const kept = client.daemonSleep({ ms: 200 });
  setTimeout(() => controller.abort(), 20);
  assert.equal((await rejection(cancelled)).name, 'AbortError');
  assert.deepEqual(await kept, { slept: 200 });
});
