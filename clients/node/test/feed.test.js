// Feed (client.openFeed) against the real daemon: it mirrors the daemon's
// feed, emits its events before the call that caused them resolves, and
// closes the feed. A fake channel drives the reload after a notification that
// does not fit. The live tests (a product created, updated and deleted while
// a feed shows it) run when the daemon sends feeds/itemsChanged, and are
// skipped otherwise.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Feed, FeedOutOfSyncError, InvalidParams, NotFound, UpstreamUnavailable } from '../src/index.js';
import { FeedRouter, OPEN } from '../src/feed.js';
import { eventually, readTrace, rejection, servesLiveFeeds, startClient } from '../test-support/helpers.js';

const DEADLINE = 15_000;

/** What the daemon holds for the feed. */
async function held(client, feed) {
  return (await client.feedsItems({ feedId: feed.feedId, start: 0, end: 100_000 })).items;
}

test('a feed mirrors the daemon feed and emits its changes before the call resolves', async (t) => {
  const { client } = await startClient(t);
  const feed = await client.openFeed('photos', { pageSize: 50 });
  assert.ok(feed instanceof Feed && /^feed-/.test(feed.feedId));
  assert.equal(feed.state, 'idle');
  assert.deepEqual(feed.items, []);
  const events = [];
  feed.on('change', (e) => events.push(e));
  const range = await feed.loadMore();
  assert.deepEqual([range.start, range.end], [0, 50]);
  assert.deepEqual(events.map((e) => e.kind), ['state', 'page', 'state'], 'the events came before the reply');
  assert.deepEqual(events[1].changes, [{ op: 'insert', index: 0, items: feed.items }]);
  assert.deepEqual(events.map((e) => e.state), ['loading', 'loading', 'idle']);
  while (feed.state !== 'ended') await feed.loadMore();
  assert.equal(feed.items.length, 120);
  assert.equal(feed.count, 120);
  assert.ok(feed.endReached);
  assert.deepEqual(feed.items, await held(client, feed));

  events.length = 0;
  const refreshed = await feed.refresh();
  assert.equal(feed.generation, 1);
  assert.equal(feed.items.length, refreshed.end);
  assert.ok(events.some((e) => e.kind === 'reset' && e.reason === 'refresh'));
  assert.deepEqual(feed.items, await held(client, feed));

  await feed.close();
  assert.ok(feed.closed);
  assert.ok((await rejection(client.feedsItems({ feedId: feed.feedId, start: 0, end: 1 }))) instanceof NotFound);
  await feed.close(); // again: nothing happens
});

test('loads asked for together are one fetch; feeds stay apart', async (t) => {
  const { client, trace } = await startClient(t);
  const feed = await client.openFeed('photos', { pageSize: 50 });
  const states = [];
  feed.on('change', (e) => e.kind === 'state' && states.push(e.state));
  const [a, b] = await Promise.all([feed.loadMore(), feed.loadMore()]);
  assert.deepEqual(a, b);
  assert.equal(feed.items.length, 50);
  const other = await client.openFeed('products', { query: { query: '우유' }, pageSize: 5 });
  await other.loadMore();
  assert.equal(other.items.length, 5);
  assert.equal(feed.items.length, 50, 'each feed sees its own pages');
  assert.deepEqual(states, ['loading', 'idle']);
  await other.close();
  assert.deepEqual(feed.items, await held(client, feed));
  const pages = trace().filter(({ dir, message }) => dir === '->' && message?.method === 'feeds/pageLoaded');
  assert.equal(pages.length, 2);
});

test('a failed load keeps the items and its error', async (t) => {
  const { client } = await startClient(t, { args: ['--photos-url', 'http://127.0.0.1:9'] });
  const feed = await client.openFeed('photos');
  assert.ok((await rejection(feed.loadMore())) instanceof UpstreamUnavailable);
  assert.equal(feed.state, 'failed');
  assert.ok(feed.error instanceof UpstreamUnavailable);
  assert.equal(feed.error.message, 'The photos server cannot be reached; try again later.');
  await feed.close();
});

test('a refused open rejects with the error', async (t) => {
  const { client } = await startClient(t);
  assert.ok((await rejection(client.openFeed('photos', { pageSize: 0 }))) instanceof InvalidParams);
  const feed = await client.openFeed('photos', { pageSize: 3 });
  await feed.loadMore();
  assert.equal(feed.items.length, 3);
});

test('await using closes the feed (Symbol.asyncDispose)', async (t) => {
  const { client, trace } = await startClient(t);
  const feed = await client.openFeed('quotes', { pageSize: 2 });
  await feed[Symbol.asyncDispose]();
  assert.ok(trace().some(({ dir, message }) => dir === '<-' && message?.method === 'feeds/close'));
});

/** A channel and client that answer like the daemon would, scripted by the test. */
function fakeDaemon() {
  const handlers = new Map();
  const calls = [];
  const reported = [];
  const channel = {
    router: new FeedRouter((method, handler) => handlers.set(method, handler)),
    call(method, params, _options, onReply) {
      const call = { method, params };
      calls.push(call);
      return new Promise((resolve, reject) => {
        call.answer = (result) => {
          onReply?.({ jsonrpc: '2.0', id: calls.length, result });
          resolve(result);
        };
        call.fail = (error) => {
          onReply?.({ jsonrpc: '2.0', id: calls.length, error });
          reject(Object.assign(new Error(error.message), error));
        };
      });
    },
    report: (error) => reported.push(error),
  };
  const client = { exitStatus: null, feedsClose: async () => ({}) };
  const notify = (method, params) => handlers.get(method)?.(params);
  return { channel, client, calls, reported, notify };
}

test('a notification that does not fit reloads the items with feeds/items', async () => {
  const { channel, client, calls, reported, notify } = fakeDaemon();
  const opening = Feed[OPEN](client, channel, 'products', { pageSize: 3 });
  notify('feeds/stateChanged', { feedId: 'feed-7', state: 'idle', count: 0 }); // before the reply: kept
  calls[0].answer({ feedId: 'feed-7', state: 'idle' });
  const feed = await opening;
  assert.deepEqual(calls[0].params, { source: 'products', pageSize: 3 });
  const events = [];
  feed.on('change', (e) => events.push(e));
  const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  notify('feeds/pageLoaded', { feedId: 'feed-7', generation: 0, start: 0, end: 3, items: list, endReached: false, reset: false });
  notify('feeds/itemsChanged', { feedId: 'feed-7', generation: 0, changes: [{ op: 'remove', index: 0, count: 1 }], count: 5 });
  assert.deepEqual(events.map((e) => e.kind), ['page', 'desync']);
  assert.ok(events[1].error instanceof FeedOutOfSyncError && /daemon holds 5/.test(events[1].error.message));
  assert.ok(feed.resyncing);
  assert.deepEqual(calls[1].params, { feedId: 'feed-7', start: 0, end: 2 ** 31 - 1 });
  // Until the reload answers, pages and changes are not applied, and no second reload starts.
  notify('feeds/itemsChanged', { feedId: 'feed-7', generation: 0, changes: [{ op: 'remove', index: 9, count: 1 }], count: 4 });
  assert.equal(calls.length, 2);
  const reloaded = [{ id: 'b' }, { id: 'c' }, { id: 'd' }, { id: 'e' }];
  calls[1].answer({ items: reloaded });
  assert.deepEqual(events.map((e) => [e.kind, e.reason]).slice(2), [['reset', 'resync']]);
  assert.deepEqual(feed.items, reloaded);
  notify('feeds/itemsChanged', { feedId: 'feed-7', generation: 0, changes: [{ op: 'insert', index: 0, items: [{ id: 'a' }] }], count: 5 });
  assert.deepEqual(feed.items.map((i) => i.id), ['a', 'b', 'c', 'd', 'e']);
  // A failed reload keeps the list and reports why.
  notify('feeds/pageLoaded', { feedId: 'feed-7', generation: 0, start: 1, end: 2, items: [{ id: 'z' }], endReached: false, reset: false });
  calls[2].fail({ code: -32603, message: 'boom' });
  await eventually(() => !feed.resyncing, 1000, 'the failed reload to end');
  assert.equal(feed.items.length, 5);
  assert.ok(reported.some((e) => e instanceof FeedOutOfSyncError && /reloading its items failed/.test(e.message)));
  assert.equal(events.at(0).kind, 'page');
});

test('a listener that throws is reported and the feed goes on', async () => {
  const { channel, client, calls, reported, notify } = fakeDaemon();
  const opening = Feed[OPEN](client, channel, 'photos');
  calls[0].answer({ feedId: 'feed-1', state: 'idle' });
  const feed = await opening;
  feed.on('change', () => {
    throw new Error('boom');
  });
  notify('feeds/pageLoaded', { feedId: 'feed-1', generation: 0, start: 0, end: 1, items: [{ id: 'a' }], endReached: false, reset: false });
  notify('feeds/stateChanged', { feedId: 'feed-1', state: 'idle', count: 1 });
  assert.equal(feed.items.length, 1);
  assert.deepEqual(reported.map((e) => e.message), ['boom', 'boom']);
});

// ---- live feeds

const fields = (product) => ['id', 'nameKo', 'price', 'version'].map((k) => product[k]);

/** [index, name]: a Korean name that sorts right after items[index - 1] and before items[index] (by code point, as sort "name" orders). */
function gapForAName(items) {
  const names = items.map((p) => p.nameKo);
  const byCodePoint = (a, b) => {
    const x = [...a].map((c) => c.codePointAt(0));
    const y = [...b].map((c) => c.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  for (let i = 3; i < names.length - 2; i++) {
    const candidate = `${names[i - 1]} 새 상품`;
    if (byCodePoint(names[i - 1], candidate) < 0 && byCodePoint(candidate, names[i]) < 0) return [i, candidate];
  }
  throw new Error(`no gap between the names ${names.join(', ')}`);
}

test('live: a created product appears in place in an open feed, then its update and its deletion', async (t) => {
  const { client } = await startClient(t);
  if (!(await servesLiveFeeds(client))) return t.skip('the daemon under test does not send feeds/itemsChanged yet');
  const feed = await client.openFeed('products', { query: { sort: 'name' }, pageSize: 10 });
  await feed.loadMore();
  await feed.loadMore();
  assert.equal(feed.items.length, 20);
  const kinds = [];
  feed.on('change', (e) => kinds.push(e.kind));
  const [index, name] = gapForAName(feed.items);
  const created = await client.productsCreate({ nameKo: name, price: 4321 });
  await eventually(() => feed.items.length === 21, DEADLINE, 'the created product in the feed');
  assert.deepEqual(feed.items, await held(client, feed));
  assert.deepEqual(fields(feed.items[index]), fields(created));
  assert.ok(kinds.includes('changes') && !kinds.includes('desync'), kinds.join(' '));

  const updated = await client.productsUpdate({ id: created.id, price: 5432 });
  await eventually(() => feed.items[index].price === 5432, DEADLINE, 'the update in the feed');
  assert.deepEqual(fields(feed.items[index]), fields(updated));
  assert.deepEqual(feed.items, await held(client, feed));

  await client.productsDelete({ id: created.id });
  await eventually(() => feed.items.length === 20, DEADLINE, 'the deletion in the feed');
  assert.ok(!feed.items.some((p) => p.id === created.id));
  assert.deepEqual(feed.items, await held(client, feed));
  assert.ok(!kinds.includes('desync'));
  await feed.close();
});

test('live: a refresh keeps the items until its first page', async (t) => {
  const { client } = await startClient(t);
  if (!(await servesLiveFeeds(client))) return t.skip('the daemon under test does not send feeds/itemsChanged yet');
  const feed = await client.openFeed('products', { query: { sort: 'name' }, pageSize: 10 });
  await feed.loadMore();
  const lengths = [];
  feed.on('change', (e) => e.kind === 'state' && lengths.push(feed.items.length));
  await feed.refresh();
  assert.ok(lengths.length > 0 && lengths.every((n) => n === 10), `no state saw an empty list: ${lengths}`);
  assert.equal(feed.generation, 1);
  assert.deepEqual(feed.items, await held(client, feed));
});
