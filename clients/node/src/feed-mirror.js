// FeedMirror: the items of one daemon feed, kept by applying its
// notifications in the order they came. No I/O here: a Feed owns a mirror,
// hands it the notifications of its feed and does the requests.
//
// The daemon guarantees that a client which starts from feeds/open (an empty
// list) and applies every feeds/pageLoaded and feeds/itemsChanged of a feed in
// order holds exactly what `feeds/items {start: 0, end: count}` returns. A
// notification that does not fit what is held (a page that does not start at
// the end, a step outside the list, a count other than the length after the
// steps, params of the wrong shape) throws FeedOutOfSyncError and leaves the
// list as it was; the owner then reloads it (beginResync, feeds/items,
// endResync).
//
// Every list the mirror holds is a new frozen array: `items` stays the same
// array between changes, so a view can compare it by identity.

import { FeedOutOfSyncError, errorFromWire } from './errors.js';

export const FEED_NOTIFICATIONS = Object.freeze(['feeds/pageLoaded', 'feeds/itemsChanged', 'feeds/stateChanged']);

const EMPTY = Object.freeze([]);

export class FeedMirror {
  /** The feed's id; null before feeds/open answered. */
  feedId;
  /** The items held, in the feed's order: a frozen array, replaced at each change. */
  items = EMPTY;
  /** The generation of the last page or change (grows by one at each refresh). */
  generation = 0;
  /** The number of items the daemon reported last (`items.length` when in step). */
  count = 0;
  /** 'idle' | 'loading' | 'refreshing' | 'failed' | 'ended'. */
  state;
  /** True once the last page is loaded. */
  endReached = false;
  /** The RpcError of the last failed load; null once a load succeeded. */
  error = null;
  /** A reload is under way: pages and changes that come before its answer are not applied (it holds them). */
  resyncing = false;

  /** @param {string | null} [feedId] @param {string} [state] */
  constructor(feedId = null, state = 'idle') {
    this.feedId = feedId;
    this.state = state;
  }

  /**
   * Applies one notification of this feed; returns the events to emit.
   * Throws FeedOutOfSyncError when it does not fit (the list is then as it was).
   * @param {string} method
   * @param {any} params
   */
  apply(method, params) {
    if (!isObject(params)) throw this.#outOfSync(`${method} params are not an object`);
    switch (method) {
      case 'feeds/pageLoaded':
        return this.pageLoaded(params);
      case 'feeds/itemsChanged':
        return this.itemsChanged(params);
      case 'feeds/stateChanged':
        return this.stateChanged(params);
      default:
        return [];
    }
  }

  /** A page: appended at `start` (the length held), or with `reset` the whole list of a new generation. */
  pageLoaded({ generation, start, end, items, endReached, reset }) {
    if (!(isIndex(generation) && isIndex(start) && isIndex(end) && isList(items) && typeof reset === 'boolean')) {
      throw this.#outOfSync('a feeds/pageLoaded is malformed');
    }
    if (end - start !== items.length || (reset && start !== 0)) {
      throw this.#outOfSync(`${reset ? 'a first page of a refresh' : 'a page'} ${start}..<${end} carries ${items.length} items`);
    }
    this.generation = generation;
    this.endReached = endReached === true;
    if (this.resyncing) return [];
    if (reset) {
      this.#set(items);
      return [this.#event('reset', { reason: 'refresh' })];
    }
    if (start !== this.items.length) {
      throw this.#outOfSync(`a page starts at ${start} but ${this.items.length} items are held`);
    }
    this.#set([...this.items, ...items]);
    return [this.#event('page', { changes: [Object.freeze({ op: 'insert', index: start, items })] })];
  }

  /** Steps applied in order: all of them, or none when one does not fit or the length after them is not `count`. */
  itemsChanged({ generation, changes, count }) {
    if (!(isIndex(generation) && Array.isArray(changes) && isIndex(count))) {
      throw this.#outOfSync('a feeds/itemsChanged is malformed');
    }
    this.generation = generation;
    if (this.resyncing) {
      this.count = count;
      return [];
    }
    const items = applyChanges(this.items, changes, this.feedId);
    if (items.length !== count) {
      throw this.#outOfSync(`${items.length} items after the changes, but the daemon holds ${count}`);
    }
    this.#set(items);
    if (changes.length === 0) return [];
    return [this.#event('changes', { changes: changes.map((c) => Object.freeze({ ...c })) })];
  }

  stateChanged({ state, count, error }) {
    if (typeof state !== 'string' || !isIndex(count) || (error !== undefined && !isObject(error))) {
      throw this.#outOfSync('a feeds/stateChanged is malformed');
    }
    const events = [];
    this.state = state;
    if (count === 0 && this.items.length > 0 && !this.resyncing) {
      // The daemon holds nothing: a daemon before live feeds drops the items
      // when a refresh starts (since then they stay until its first page).
      this.#set(EMPTY);
      events.push(this.#event('reset', { reason: 'cleared' }));
    }
    this.count = count;
    if (state === 'ended') this.endReached = true;
    if (error !== undefined) this.error = errorFromWire(error);
    else if (state === 'idle' || state === 'ended') this.error = null;
    events.push(this.#event('state', { error: state === 'failed' ? this.error : null }));
    return events;
  }

  /** The event that reports `error`, a FeedOutOfSyncError. */
  desync(error) {
    return this.#event('desync', { error });
  }

  /** Starts a reload; false when one is under way already. */
  beginResync() {
    if (this.resyncing) return false;
    this.resyncing = true;
    return true;
  }

  /**
   * The reload's answer: `items` replace the list (null: it failed, the list
   * stays). Pages and changes applied from now on come after it.
   * @param {readonly object[] | null} items
   */
  endResync(items) {
    this.resyncing = false;
    if (items === null) return [];
    this.#set(items);
    return [this.#event('reset', { reason: 'resync' })];
  }

  #set(items) {
    this.items = Object.isFrozen(items) ? items : Object.freeze([...items]);
    this.count = this.items.length;
  }

  #event(kind, { changes = EMPTY, reason = null, error = null } = {}) {
    return Object.freeze({
      kind,
      changes: Object.freeze(changes),
      reason,
      state: this.state,
      count: this.count,
      generation: this.generation,
      error,
    });
  }

  #outOfSync(reason) {
    return new FeedOutOfSyncError(this.feedId, reason);
  }
}

/**
 * `items` after the steps of a feeds/itemsChanged, as a new frozen array (the
 * input is left alone). Throws FeedOutOfSyncError for a step outside the list.
 * @param {readonly object[]} items
 * @param {readonly any[]} changes
 * @param {string | null} [feedId]
 */
export function applyChanges(items, changes, feedId = null) {
  const out = [...items];
  changes.forEach((change, i) => {
    const where = `step ${i + 1} of ${changes.length}`;
    const fail = (what) => new FeedOutOfSyncError(feedId, `${where} ${what}`);
    if (!isObject(change) || !isIndex(change.index)) throw fail('is malformed');
    const { op, index } = change;
    if (op === 'insert') {
      if (!isList(change.items)) throw fail('is malformed');
      if (index > out.length) throw fail(`inserts at ${index} into ${out.length} items`);
      out.splice(index, 0, ...change.items);
    } else if (op === 'remove') {
      if (!Number.isInteger(change.count) || change.count < 1 || index + change.count > out.length) {
        throw fail(`removes ${change.count} at ${index} from ${out.length} items`);
      }
      out.splice(index, change.count);
    } else if (op === 'update') {
      if (!isList(change.items)) throw fail('is malformed');
      if (index + change.items.length > out.length) throw fail(`updates ${change.items.length} at ${index} of ${out.length} items`);
      out.splice(index, change.items.length, ...change.items);
    } else {
      throw fail(`has the unknown op ${JSON.stringify(op)}`);
    }
  });
  return Object.freeze(out);
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

function isList(value) {
  return Array.isArray(value) && value.every(isObject);
}
