// The trace option sees every message, in the order it went over the wire.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { rejection, startClient } from '../test-support/helpers.js';

test('trace gets every message sent and received, as the daemon saw them', async (t) => {
  const seen = [];
  const { client, trace } = await startClient(t, { trace: (direction, message) => seen.push([direction, message]) });
  await client.quotesRandom();
  await rejection(client.quotesList({ limit: 0 }));
  await client.daemonEcho(['last']);

  assert.deepEqual(seen[0], [
    'send',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: seen[0][1].params },
  ]);
  assert.equal(seen[0][1].params.clientInfo.name, 'catalogd-node');
  assert.deepEqual(seen[1][0], 'receive');
  assert.equal(seen[1][1].id, 1);
  assert.ok(seen[1][1].result.serverInfo);
  assert.deepEqual(seen[2], ['send', { jsonrpc: '2.0', method: 'initialized', params: {} }]);
  // Notifications come before the reply they precede, replies with errors too.
  const methods = seen.map(([direction, m]) => `${direction} ${m.method ?? (m.error ? `error ${m.error.code}` : `reply ${m.id}`)}`);
  assert.deepEqual(methods.slice(3), [
    'send quotes/random',
    'receive quotes/loading',
    'receive quotes/loading',
    'receive reply 2',
    'send quotes/list',
    'receive error -32602',
    'send daemon/echo',
    'receive reply 4',
  ]);
  // The daemon's own trace holds the same messages (it logs each as it reads or writes it).
  const wire = trace().map(({ dir, message }) => [dir === '<-' ? 'send' : 'receive', message]);
  assert.deepEqual(seen, wire);
});

test('a trace that throws goes to onError, and the session goes on', async (t) => {
  const errors = [];
  const { client } = await startClient(t, {
    onError: (error) => errors.push(error),
    trace: (direction) => {
      if (direction === 'receive') throw new Error('trace broke');
    },
  });
  assert.deepEqual(await client.daemonEcho([1]), [1]);
  assert.ok(errors.length >= 2, 'the initialize reply and this one');
  assert.ok(errors.every((error) => error.message === 'trace broke'));
});
