// The apply logic of Feed, on synthetic notification sequences (no daemon):
// pages, resets, changes in place at the edges and in the middle, several
// steps in one notification, the checks that detect a feed out of step, the
// reload that follows, and the routing of notifications by feed id.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FeedMirror, FeedOutOfSyncError, UpstreamUnavailable, applyChanges } from '../src/index.js';
import { FeedRouter } from '../src/feed.js';

const FEED = 'feed-1';
const PAGE = 'feeds/pageLoaded';
const CHANGED = 'feeds/itemsChanged';
const STATE = 'feeds/stateChanged';

const item = (n, version = 1) => ({ id: String(n), name: `item ${n}`, version });
const items = (...ns) => ns.map((n) => item(n));
const page = (start, list, { generation = 0, reset = false, endReached = false } = {}) => ({
  feedId: FEED, generation, start, end: start + list.length, items: list, endReached, reset,
});
const changed = (changes, count, generation = 0) => ({ feedId: FEED, generation, changes, count });
const state = (name, count, error) => ({ feedId: FEED, state: name, count, ...(error ? { error } : {}) });
const insert = (index, ...ns) => ({ op: 'insert', index, items: items(...ns) });
const remove = (index, count) => ({ op: 'remove', index, count });
const update = (index, ...ns) => ({ op: 'update', index, items: ns.map((n) => item(n, 2)) });

function mirrorWith(...ns) {
  const m = new FeedMirror(FEED);
  m.apply(PAGE, page(0, items(...ns)));
  return m;
}
const ids = (m) => m.items.map((i) => Number(i.id));

test('pages append in order, each with its insert', () => {
  const m = new FeedMirror(FEED);
  assert.deepEqual(m.apply(STATE, state('loading', 0)).map((e) => [e.kind, e.state]), [['state', 'loading']]);
  const [first] = m.apply(PAGE, page(0, items(1, 2, 3)));
  assert.deepEqual(first, { kind: 'page', changes: [{ op: 'insert', index: 0, items: items(1, 2, 3) }], reason: null, state: 'loading', count: 3, generation: 0, error: null });
  const [second] = m.apply(PAGE, page(3, items(4, 5), { endReached: true }));
  assert.equal(second.changes[0].index, 3);
  assert.deepEqual(ids(m), [1, 2, 3, 4, 5]);
  assert.equal(m.count, 5);
  assert.ok(m.endReached);
  assert.ok(Object.isFrozen(m.items) && Object.isFrozen(first));
});

test('each change gives a new items array; the old one is left alone', () => {
  const m = mirrorWith(1, 2);
  const before = m.items;
  m.apply(CHANGED, changed([insert(0, 9)], 3));
  assert.notEqual(m.items, before);
  assert.deepEqual(before.map((i) => i.id), ['1', '2']);
});

for (const start of [0, 1, 3, 10]) {
  test(`a page starting at ${start} while 2 items are held is out of sync`, () => {
    const m = mirrorWith(1, 2);
    assert.throws(() => m.apply(PAGE, page(start, items(7, 8))), (e) => e instanceof FeedOutOfSyncError && e.feedId === FEED && /starts at/.test(e.reason));
    assert.deepEqual(ids(m), [1, 2], 'the list is as it was');
  });
}

test('a reset page replaces the list and takes its generation; the items stay while the refresh runs', () => {
  const m = mirrorWith(1, 2, 3, 4);
  m.apply(STATE, state('refreshing', 4));
  assert.deepEqual(ids(m), [1, 2, 3, 4]);
  const events = m.apply(PAGE, page(0, items(9, 1, 2), { generation: 1, reset: true }));
  assert.deepEqual(events.map((e) => [e.kind, e.reason]), [['reset', 'refresh']]);
  assert.deepEqual(ids(m), [9, 1, 2]);
  assert.equal(m.generation, 1);
  m.apply(PAGE, page(3, items(3), { generation: 1 }));
  assert.deepEqual(ids(m), [9, 1, 2, 3]);
  assert.throws(() => m.apply(PAGE, page(4, items(5), { generation: 2, reset: true })), FeedOutOfSyncError);
});

const oneStep = [
  ['insert at the start', insert(0, 10), [10, 1, 2, 3, 4]],
  ['insert in the middle', insert(2, 10, 11), [1, 2, 10, 11, 3, 4]],
  ['insert at the end', insert(4, 10), [1, 2, 3, 4, 10]],
  ['remove the first', remove(0, 1), [2, 3, 4]],
  ['remove the last', remove(3, 1), [1, 2, 3]],
  ['remove a run', remove(1, 2), [1, 4]],
  ['remove everything', remove(0, 4), []],
];
for (const [name, change, expected] of oneStep) {
  test(`one step: ${name}`, () => {
    const m = mirrorWith(1, 2, 3, 4);
    const events = m.apply(CHANGED, changed([change], expected.length));
    assert.deepEqual(ids(m), expected);
    assert.deepEqual(events.map((e) => e.kind), ['changes']);
    assert.deepEqual(events[0].changes, [change]);
  });
}

for (const [index, ns] of [[0, [1]], [3, [4]], [1, [2, 3]], [0, [1, 2, 3, 4]]]) {
  test(`update ${ns.length} at ${index} replaces them in place`, () => {
    const m = mirrorWith(1, 2, 3, 4);
    m.apply(CHANGED, changed([update(index, ...ns)], 4));
    assert.deepEqual(ids(m), [1, 2, 3, 4]);
    assert.deepEqual(m.items.map((i) => i.version), [0, 1, 2, 3].map((k) => (k >= index && k < index + ns.length ? 2 : 1)));
  });
}

test('several steps apply in order, each on the list the previous left', () => {
  const m = mirrorWith(1, 2, 3, 4, 5);
  const steps = [remove(1, 1), insert(3, 2), update(0, 1, 3), insert(5, 6), remove(0, 1)];
  const [event] = m.apply(CHANGED, changed(steps, 5));
  assert.deepEqual(ids(m), [3, 4, 2, 5, 6]);
  assert.equal(m.items[0].version, 2);
  assert.equal(m.items[1].version, 1);
  assert.deepEqual(event.changes.map((c) => c.op), ['remove', 'insert', 'update', 'insert', 'remove']);
});

test('changes into an empty feed and back; no steps is no event', () => {
  const m = new FeedMirror(FEED);
  m.apply(CHANGED, changed([insert(0, 1)], 1));
  assert.deepEqual(ids(m), [1]);
  m.apply(CHANGED, changed([remove(0, 1)], 0));
  assert.deepEqual(ids(m), []);
  assert.deepEqual(m.apply(CHANGED, changed([], 0)), []);
});

const misfits = [
  ['insert past the end', [insert(5, 9)], 5],
  ['remove past the end', [remove(3, 2)], 2],
  ['remove nothing', [{ op: 'remove', index: 0, count: 0 }], 4],
  ['update past the end', [update(3, 4, 5)], 4],
  ['a second step outside what the first left', [insert(0, 9), remove(5, 1)], 4],
  ['a count that disagrees', [insert(4, 9)], 4],
  ['no steps and a count that disagrees', [], 3],
  ['an unknown op', [{ op: 'move', index: 0, to: 2 }], 4],
  ['a negative index', [{ op: 'insert', index: -1, items: [] }], 4],
];
for (const [name, steps, count] of misfits) {
  test(`a change that does not fit is out of sync and changes nothing: ${name}`, () => {
    const m = mirrorWith(1, 2, 3, 4);
    assert.throws(() => m.apply(CHANGED, changed(steps, count)), FeedOutOfSyncError);
    assert.deepEqual(ids(m), [1, 2, 3, 4], 'all steps or none');
  });
}

test('params of the wrong shape are out of sync', () => {
  const m = mirrorWith(1, 2);
  assert.throws(() => m.apply(CHANGED, { feedId: FEED, generation: 0, count: 2 }), FeedOutOfSyncError);
  assert.throws(() => m.apply(PAGE, { feedId: FEED, start: 2 }), FeedOutOfSyncError);
  assert.throws(() => m.apply(STATE, ['not', 'an', 'object']), FeedOutOfSyncError);
  assert.deepEqual(ids(m), [1, 2]);
});

test('random sequences match a reference list', () => {
  let seed = 13;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const below = (n) => Math.floor(random() * n);
  for (let round = 0; round < 200; round++) {
    const m = new FeedMirror(FEED);
    let reference = [];
    let nextId = 0;
    let generation = 0;
    const fresh = (n) => Array.from({ length: n }, () => item(nextId++));
    for (let step = 0, steps = 1 + below(14); step < steps; step++) {
      const roll = random();
      if (roll < 0.25) {
        const list = fresh(below(4));
        m.apply(PAGE, page(reference.length, list, { generation }));
        reference = [...reference, ...list];
      } else if (roll < 0.3) {
        const list = fresh(below(4));
        m.apply(PAGE, page(0, list, { generation: ++generation, reset: true }));
        reference = list;
      } else {
        const changes = [];
        for (let k = 0, n = 1 + below(4); k < n; k++) {
          const op = reference.length === 0 ? 'insert' : ['insert', 'remove', 'update'][below(3)];
          if (op === 'insert') {
            const at = below(reference.length + 1);
            const list = fresh(1 + below(2));
            changes.push({ op, index: at, items: list });
            reference.splice(at, 0, ...list);
          } else {
            const at = below(reference.length);
            const n2 = 1 + below(reference.length - at);
            if (op === 'remove') {
              changes.push({ op, index: at, count: n2 });
              reference.splice(at, n2);
            } else {
              const list = reference.slice(at, at + n2).map((i) => ({ ...i, version: i.version + 1 }));
              changes.push({ op, index: at, items: list });
              reference.splice(at, n2, ...list);
            }
          }
        }
        m.apply(CHANGED, changed(changes, reference.length, generation));
      }
      assert.deepEqual(m.items, reference);
      assert.equal(m.count, reference.length);
    }
  }
});

test('applyChanges leaves its input alone', () => {
  const before = items(1, 2, 3);
  const after = applyChanges(before, [remove(0, 1)]);
  assert.deepEqual(before.map((i) => i.id), ['1', '2', '3']);
  assert.deepEqual(after.map((i) => i.id), ['2', '3']);
});

test('a failed load keeps the items and its error until a load succeeds', () => {
  const m = mirrorWith(1, 2);
  const error = { code: -32020, message: 'The photos server cannot be reached; try again later.', data: { service: 'photos', retryable: true } };
  const [event] = m.apply(STATE, state('failed', 2, error));
  assert.deepEqual(ids(m), [1, 2]);
  assert.ok(m.error instanceof UpstreamUnavailable && m.error.message === error.message);
  assert.equal(event.error, m.error);
  m.apply(STATE, state('loading', 2));
  assert.ok(m.error, 'a retry still shows what went wrong');
  m.apply(STATE, state('idle', 2));
  assert.equal(m.error, null);
});

test('a state with count 0 while items are held clears them (a daemon before live feeds)', () => {
  const m = mirrorWith(1, 2, 3);
  const events = m.apply(STATE, state('refreshing', 0));
  assert.deepEqual(events.map((e) => [e.kind, e.reason, e.state]), [['reset', 'cleared', 'refreshing'], ['state', null, 'refreshing']]);
  assert.deepEqual(ids(m), []);
});

test('a reload replaces everything that came before its answer', () => {
  const m = mirrorWith(1, 2, 3);
  let error;
  assert.throws(() => m.apply(CHANGED, changed([remove(0, 1)], 7)), (e) => (error = e) instanceof FeedOutOfSyncError);
  assert.equal(m.desync(error).kind, 'desync');
  assert.ok(m.beginResync());
  assert.ok(!m.beginResync(), 'one reload at a time');
  assert.deepEqual(m.apply(PAGE, page(9, items(9))), []);
  assert.deepEqual(m.apply(CHANGED, changed([insert(99, 9)], 8)), []);
  assert.deepEqual(ids(m), [1, 2, 3]);
  const events = m.endResync(items(2, 3, 4, 5, 6, 7, 8, 9));
  assert.deepEqual(events.map((e) => [e.kind, e.reason]), [['reset', 'resync']]);
  assert.ok(!m.resyncing);
  m.apply(CHANGED, changed([insert(0, 1)], 9));
  assert.deepEqual(ids(m).slice(0, 2), [1, 2], 'changes after the answer apply on top of it');
  m.beginResync();
  assert.deepEqual(m.endResync(null), [], 'a failed reload keeps the list');
  assert.equal(m.items.length, 9);
});

test('the router keeps what came for a new feed before its open answered', () => {
  const handlers = new Map();
  const send = (method, params) => handlers.get(method)?.(params);
  const router = new FeedRouter((method, handler) => handlers.set(method, handler));
  const got = { known: [], fresh: [] };
  // Feeds receive through a module-private symbol: a Proxy answers any symbol with a recorder.
  const make = (list) => new Proxy({}, { get: (_, key) => (typeof key === 'symbol' ? (method, params) => list.push([method, params.state ?? params.start]) : undefined) });
  router.attach('feed-1', make(got.known));
  send(STATE, { feedId: 'feed-2', state: 'dropped' }); // no open under way
  router.beginOpen();
  send(STATE, { feedId: 'feed-1', state: 'idle' });
  send(STATE, { feedId: 'feed-2', state: 'loading' });
  send(PAGE, { feedId: 'feed-2', start: 0 });
  send(STATE, { feedId: 'feed-3', state: 'other' });
  const early = router.attach('feed-2', make(got.fresh));
  assert.deepEqual(early, [[STATE, { feedId: 'feed-2', state: 'loading' }], [PAGE, { feedId: 'feed-2', start: 0 }]]);
  send(STATE, { feedId: 'feed-2', state: 'idle' });
  router.endOpen();
  assert.deepEqual(got.fresh, [[STATE, 'idle']], 'after the reply, straight to the feed');
  assert.deepEqual(got.known, [[STATE, 'idle']]);
  assert.deepEqual(router.attach('feed-3', make([])), [], 'kept only while an open is under way');
  router.detach('feed-2');
  send(STATE, { feedId: 'feed-2', state: 'closed' });
  assert.equal(got.fresh.length, 1);
});
