// Feed: a live daemon feed as a list that keeps itself up to date, what a
// PagingDataAdapter is to Android's Paging 3. `await client.openFeed(source)`
// opens it; it applies every feeds/pageLoaded, feeds/itemsChanged and
// feeds/stateChanged of its feed to a local list, in the order the daemon sent
// them, and emits a 'change' event saying what each one changed, so that a UI
// can insert, remove and redraw rows in place.
//
// Ordering: one FeedRouter per client routes the notifications by feedId. It
// listens before feeds/open is sent; the feed learns its id from a hook that
// the client runs when it reads the reply, in stream order, so the
// notifications after the reply are never missed, and those of the new feed
// that came before it are kept and applied first.
//
// Consistency: a notification that does not fit the list (see FeedMirror)
// gives a 'desync' event and a reload of the list with feeds/items; a 'reset'
// event with reason 'resync' follows. Pages and changes that arrive before the
// reload's reply are not applied: the reply holds them.

import { EventEmitter } from 'node:events';

import { ClientClosedError, DaemonExitedError, FeedOutOfSyncError, NotFound, ProtocolError, UsageError } from './errors.js';
import { FEED_NOTIFICATIONS, FeedMirror } from './feed-mirror.js';

/** Opens a feed; used by Client.openFeed (not exported from the package). */
export const OPEN = Symbol('Feed.open');
/** Delivers a notification; used by the router. */
const RECEIVE = Symbol('Feed.receive');
const CONSTRUCT = Symbol('Feed');

/** `end` of the feeds/items that reloads a feed: past any count (the daemon cuts it to the count). */
const RESYNC_END = 2 ** 31 - 1;
/** How many notifications of unknown feeds are kept while opens are under way. */
const MAX_EARLY = 1000;

/** The feed objects of one client by feed id. */
export class FeedRouter {
  /** Open feed objects by feed id. */
  #feeds = new Map();
  /** feeds/open calls sent and not yet ended. */
  #opening = 0;
  /** [feedId, method, params] of unknown feeds received while #opening. */
  #early = [];

  /** @param {(method: string, handler: (params: any) => void) => unknown} on the client's `on` */
  constructor(on) {
    for (const method of FEED_NOTIFICATIONS) on(method, (params) => this.#route(method, params));
  }

  /** Call before sending feeds/open: notifications of unknown feeds are kept from now on. */
  beginOpen() {
    this.#opening += 1;
  }

  /** Call when that feeds/open ended (answered, failed or abandoned). */
  endOpen() {
    this.#opening -= 1;
    if (this.#opening === 0) this.#early = [];
  }

  /** Routes `feedId` to `feed`; returns the [method, params] that came for it before, in order. */
  attach(feedId, feed) {
    this.#feeds.set(feedId, feed);
    const mine = this.#early.filter(([id]) => id === feedId).map(([, method, params]) => [method, params]);
    this.#early = this.#early.filter(([id]) => id !== feedId);
    return mine;
  }

  detach(feedId) {
    this.#feeds.delete(feedId);
  }

  #route(method, params) {
    const feedId = params?.feedId;
    if (typeof feedId !== 'string') return;
    const feed = this.#feeds.get(feedId);
    if (feed) feed[RECEIVE](method, params);
    else if (this.#opening > 0 && this.#early.length < MAX_EARLY) this.#early.push([feedId, method, params]);
  }
}

/**
 * A feed of the daemon kept up to date by its notifications. Create it with
 * `await client.openFeed(source, options)`.
 *
 * Events: `'change'` with a FeedEvent `{kind, changes, reason, state, count,
 * generation, error}` after each change was applied.
 */
export class Feed extends EventEmitter {
  /** The Client. */
  #client;
  /** {router, call(method, params, options, onReply), report(error)}: what the client lends its feeds. */
  #channel;
  #mirror = new FeedMirror();
  #closed = false;

  /** Use `client.openFeed()`. */
  constructor(token, client, channel, source, { query, pageSize, changes } = {}) {
    if (token !== CONSTRUCT) throw new UsageError('use `await client.openFeed(source, options)` to open a feed');
    super();
    this.#client = client;
    this.#channel = channel;
    /** The list it pages through: 'photos', 'products', 'places' or 'quotes'. */
    this.source = source;
    /** The source's filters, as given to feeds/open. */
    this.query = query;
    /** Items per page as asked (undefined: the source's default). */
    this.pageSize = pageSize;
    /** 'diff', 'reset', or undefined (the daemon's default, diff). */
    this.changes = changes;
  }

  /**
   * Opens a feed through `channel` (Client.openFeed).
   * @returns {Promise<Feed>}
   */
  static async [OPEN](client, channel, source, options = {}) {
    const { query, pageSize, changes, signal, timeout } = options ?? {};
    const feed = new Feed(CONSTRUCT, client, channel, source, { query, pageSize, changes });
    const params = { source };
    if (query !== undefined) params.query = query;
    if (pageSize !== undefined) params.pageSize = pageSize;
    if (changes !== undefined) params.changes = changes;
    channel.router.beginOpen();
    try {
      await channel.call('feeds/open', params, { signal, timeout }, (reply) => feed.#onOpenReply(reply));
      if (feed.#mirror.feedId === null) throw new ProtocolError('feeds/open answered without a feedId');
    } catch (error) {
      // When the reply came as the call gave up, the feed is open in the daemon: close it.
      if (feed.#beginClose()) client.feedsClose({ feedId: feed.feedId }).catch(() => {});
      throw error;
    } finally {
      channel.router.endOpen();
    }
    return feed;
  }

  /** The daemon's id of the feed. */
  get feedId() {
    return this.#mirror.feedId;
  }

  /** The items held, in the feed's order: a frozen array, a new one after each change (compare it by identity). */
  get items() {
    return this.#mirror.items;
  }

  /** Grows by one at each refresh. */
  get generation() {
    return this.#mirror.generation;
  }

  /** The number of items the daemon reported last (`items.length` when in step). */
  get count() {
    return this.#mirror.count;
  }

  /** 'idle' | 'loading' | 'refreshing' | 'failed' | 'ended': the last feeds/stateChanged. */
  get state() {
    return this.#mirror.state;
  }

  /** True once the last page is loaded. */
  get endReached() {
    return this.#mirror.endReached;
  }

  /** The RpcError of the last failed load or refresh (the items stay); null once a load succeeded. */
  get error() {
    return this.#mirror.error;
  }

  /** True while the items are reloaded after a notification did not fit them. */
  get resyncing() {
    return this.#mirror.resyncing;
  }

  /** True once close() was called. */
  get closed() {
    return this.#closed;
  }

  /**
   * Appends the next page (feeds/loadMore): when it resolves, the page is in
   * `items` and 'change' was emitted. A call while a load runs joins it.
   * Rejects with the load's error (the state is then 'failed', the items
   * stay, and the next call tries the same page again).
   * @param {import('./index.js').RequestOptions} [options]
   */
  loadMore(options) {
    return this.#client.feedsLoadMore({ feedId: this.feedId }, options);
  }

  /**
   * Pull-to-refresh (feeds/refresh): a new generation, whose first page
   * replaces the items (a 'reset' event) before it resolves.
   * @param {import('./index.js').RequestOptions} [options]
   */
  refresh(options) {
    return this.#client.feedsRefresh({ feedId: this.feedId }, options);
  }

  /**
   * Closes the feed in the daemon (feeds/close) and stops following it; the
   * items stay readable. Calling it again does nothing.
   * @param {import('./index.js').RequestOptions} [options]
   */
  async close(options) {
    if (!this.#beginClose()) return;
    try {
      await this.#client.feedsClose({ feedId: this.feedId }, options);
    } catch (error) {
      // Closed already, or the daemon is gone: either way nothing is left to close.
      if (!(error instanceof NotFound || error instanceof DaemonExitedError || error instanceof ClientClosedError)) throw error;
    }
  }

  /** `await using feed = await client.openFeed(…)` closes it at the end of the block. */
  [Symbol.asyncDispose]() {
    return this.close();
  }

  /** The reply to feeds/open, as the client reads it: from here on the feed's notifications come here. */
  #onOpenReply(reply) {
    const feedId = reply?.result?.feedId;
    if (typeof feedId !== 'string') return; // an error reply: the call rejects with it
    this.#mirror.feedId = feedId;
    if (typeof reply.result.state === 'string') this.#mirror.state = reply.result.state;
    for (const [method, params] of this.#channel.router.attach(feedId, this)) this[RECEIVE](method, params);
  }

  /** One notification of this feed, in stream order. */
  [RECEIVE](method, params) {
    if (this.#closed) return;
    let events;
    let resync = false;
    try {
      events = this.#mirror.apply(method, params);
    } catch (error) {
      if (!(error instanceof FeedOutOfSyncError)) throw error;
      events = [this.#mirror.desync(error)];
      resync = this.#mirror.beginResync();
    }
    this.#emit(events);
    if (resync) this.#resync();
  }

  /** Reloads the items with feeds/items, in stream order (without waiting: this runs in a notification handler). */
  #resync() {
    let answered = false;
    const onReply = (reply) => {
      answered = true;
      const items = reply?.result?.items;
      if (!Array.isArray(items)) this.#channel.report(new FeedOutOfSyncError(this.feedId, `reloading its items failed: ${JSON.stringify(reply?.error)}`));
      if (this.#closed) return;
      this.#emit(this.#mirror.endResync(Array.isArray(items) ? items : null));
    };
    this.#channel
      .call('feeds/items', { feedId: this.feedId, start: 0, end: RESYNC_END }, {}, onReply)
      .catch((error) => {
        if (answered) return; // an error reply: onReply had it
        this.#channel.report(error);
        this.#mirror.endResync(null);
      });
  }

  #emit(events) {
    for (const event of events) {
      try {
        this.emit('change', event);
      } catch (error) {
        this.#channel.report(error); // a listener threw: the feed goes on
      }
    }
  }

  /** Stops applying notifications; true when feeds/close is to be sent. */
  #beginClose() {
    if (this.#closed) return false;
    this.#closed = true;
    const { feedId } = this.#mirror;
    if (feedId === null) return false;
    this.#channel.router.detach(feedId);
    return this.#client.exitStatus === null;
  }
}
