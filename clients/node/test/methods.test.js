// The typed methods: one per OpenRPC method, each going over the wire.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client, METHODS } from '../src/index.js';
import { camelCase } from '../scripts/generate.mjs';
import { REPO_ROOT, startClient } from '../test-support/helpers.js';

const OPENRPC = JSON.parse(readFileSync(join(REPO_ROOT, 'openrpc.json'), 'utf8'));

function assertClientHasMethods(names, where) {
  const missing = names.filter((name) => typeof Client.prototype[camelCase(name)] !== 'function' || METHODS[camelCase(name)] !== name);
  assert.deepEqual(missing, [], `methods of ${where} without a client method (run scripts/generate.mjs)`);
}

test('every method of openrpc.json has a client method', () => {
  assert.ok(OPENRPC.methods.length > 0);
  assertClientHasMethods(OPENRPC.methods.map((m) => m.name), 'openrpc.json');
});

test('every method the daemon serves (rpc.discover) has a client method', async (t) => {
  const { client } = await startClient(t);
  const doc = await client.rpcDiscover();
  assert.equal(doc.info.title, 'catalogd');
  assertClientHasMethods(doc.methods.map((m) => m.name), 'rpc.discover');
});

test('camelCase names', () => {
  assert.equal(camelCase('quotes/random'), 'quotesRandom');
  assert.equal(camelCase('daemon/echo'), 'daemonEcho');
  assert.equal(camelCase('rpc.discover'), 'rpcDiscover');
  assert.equal(camelCase('products/listUpdated'), 'productsListUpdated');
  assert.equal(camelCase('$/cancelRequest'), 'cancelRequest');
  assert.equal(camelCase('initialize'), 'initialize');
});

test('typed methods send their wire method and params', async (t) => {
  const { client, trace } = await startClient(t);
  const quote = await client.quotesRandom({ tags: ['wisdom'] });
  assert.deepEqual(Object.keys(quote).sort(), ['author', 'content', 'id', 'length', 'tags']);
  assert.ok(quote.tags.includes('wisdom'));
  assert.equal(quote.length, [...quote.content].length);

  const page = await client.quotesList({ limit: 3 });
  assert.equal(page.page, 1);
  assert.equal(page.items.length, 3);
  assert.equal(page.nextPage, 2);
  const next = await client.quotesList({ limit: 3, page: page.nextPage });
  assert.equal(next.page, 2);
  assert.notDeepEqual(next.items, page.items);

  const sent = trace().filter((e) => e.dir === '<-' && 'id' in e.message).map((e) => e.message);
  assert.deepEqual(sent.find((m) => m.method === 'quotes/random').params, { tags: ['wisdom'] });
  assert.deepEqual(sent.find((m) => m.method === 'quotes/list').params, { limit: 3 });
});

test('quotes/list reaches the last page', async (t) => {
  const { client } = await startClient(t);
  const first = await client.quotesList({ limit: 100 });
  let page = first;
  let count = 0;
  while (page.nextPage !== null) {
    count += page.items.length;
    page = await client.quotesList({ limit: 100, page: page.nextPage });
  }
  count += page.items.length;
  assert.ok(count > 100, `only ${count} quotes`);
});

test('params left out are left out of the message', async (t) => {
  const { client, trace } = await startClient(t);
  assert.equal(await client.daemonEcho(), null);
  const status = await client.daemonStatus();
  assert.equal(status.backends.quotes, 'embedded');
  assert.equal(typeof status.uptimeSeconds, 'number');
  const sent = trace().filter((e) => e.dir === '<-' && ['daemon/echo', 'daemon/status'].includes(e.message.method));
  assert.equal(sent.length, 2);
  for (const { message } of sent) assert.equal('params' in message, false, JSON.stringify(message));
});

test('daemon/echo round-trips JSON, including non-ASCII text', async (t) => {
  const { client } = await startClient(t);
  const value = { text: 'naïve 😀 한국어 \u2028 "quoted"\n', list: [1, -2.5, true, null, {}], nested: { a: [[]] } };
  assert.deepEqual(await client.daemonEcho(value), value);
  assert.deepEqual(await client.request('daemon/echo', ['by', 'position']), ['by', 'position']);
});

test('daemon/sleep runs concurrently; replies may come out of order', async (t) => {
  const { client } = await startClient(t);
  const order = [];
  const slow = client.daemonSleep({ ms: 300 }).then((r) => order.push(['slow', r]));
  const fast = client.daemonSleep({ ms: 10 }).then((r) => order.push(['fast', r]));
  await Promise.all([slow, fast]);
  assert.deepEqual(order, [
    ['fast', { slept: 10 }],
    ['slow', { slept: 300 }],
  ]);
});

test('many requests at once are each answered with their own result', async (t) => {
  const { client } = await startClient(t);
  const results = await Promise.all(Array.from({ length: 500 }, (_, i) => client.daemonEcho({ i })));
  assert.deepEqual(
    results.map((r) => r.i),
    Array.from({ length: 500 }, (_, i) => i),
  );
});
