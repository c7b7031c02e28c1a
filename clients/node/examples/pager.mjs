#!/usr/bin/env node
// Scrolls the photo or product feed with the keyboard; pages load as you near the end.
//
//   node clients/node/examples/pager.mjs [--source photos|products] [--query TEXT]
//                                        [--page-size N] [-- DAEMON ARGS...]
//
// The feed lives in the daemon (feeds/open); this app mirrors it. When the
// cursor comes within a screen of the end of what is loaded it asks for the
// next page (feeds/loadMore), appends what feeds/pageLoaded brings, and shows
// the state of the last feeds/stateChanged (loading, refreshing, failed,
// ended) in its status line. r is pull-to-refresh (feeds/refresh); quitting
// closes the feed (feeds/close).
//
// Keys: ↓/j and ↑/k move, PgDn/space and PgUp/b page, g/G go to the top or the
// end of what is loaded, Enter loads more now (and retries after a failure),
// r refreshes, q or Ctrl-C quits.
//
// On a terminal the keyboard is read in raw mode and the list is drawn full
// screen. When stdin or stdout is not a terminal, the keys come from stdin
// (`printf 'jjjjq' | node pager.mjs`): each is handled after the loads it
// started have ended, every screen is printed as plain text (its size from
// $LINES and $COLUMNS), and the end of the input quits.

import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';

import { CatalogdError, Client, DaemonExitedError } from '../src/index.js';
import { daemonBinary } from './daemon.mjs';

/**
 * A feed of the daemon as a screen sees it: the items loaded so far, mirrored
 * from feeds/pageLoaded, and the state of the last feeds/stateChanged. Nothing
 * is fetched here: the daemon pages, joins a second loadMore to the running
 * one and drops pages of older generations.
 */
class Feed {
  /** The loaded items, as the source's JSON objects. */
  items = [];
  /** 'idle' | 'loading' | 'refreshing' | 'failed' | 'ended'. */
  state = 'idle';
  /** The message of the failed load (the next load retries the same page). */
  error = null;
  /** Grows by one at each refresh. */
  generation = 0;
  feedId = null;
  /** Loads and refreshes asked for here that have not answered yet. */
  #pending = new Set();
  #dispose;

  /** @param {Client} client @param {{source: string, query?: object, pageSize?: number, onChange?: () => void}} options */
  constructor(client, { source, query, pageSize, onChange = () => {} }) {
    this.client = client;
    this.source = source;
    this.query = query;
    this.pageSize = pageSize;
    this.onChange = onChange;
    const offPage = client.on('feeds/pageLoaded', (n) => this.#pageLoaded(n));
    const offState = client.on('feeds/stateChanged', (n) => this.#stateChanged(n));
    this.#dispose = () => {
      offPage();
      offState();
    };
  }

  async open() {
    const opened = await this.client.feedsOpen({ source: this.source, query: this.query, pageSize: this.pageSize });
    this.feedId = opened.feedId;
    this.state = opened.state;
  }

  #pageLoaded({ feedId, generation, start, items, reset }) {
    if (feedId !== this.feedId) return;
    if (reset) this.items = [];
    this.generation = generation;
    this.items.splice(start, Infinity, ...items);
    this.onChange();
  }

  #stateChanged({ feedId, state, error }) {
    if (feedId !== this.feedId) return;
    this.state = state;
    this.error = error?.message ?? null;
    // The daemon dropped the loaded items at once; the list shows what it holds.
    if (state === 'refreshing') this.items = [];
    this.onChange();
  }

  /** A load or a refresh runs, or was asked for and has not answered yet. */
  get busy() {
    return this.state === 'loading' || this.state === 'refreshing' || this.#pending.size > 0;
  }

  /** Asks for the next page in the background; `then` runs when the answer is in. */
  loadMore(then = () => {}) {
    this.#background(this.client.feedsLoadMore({ feedId: this.feedId }), then);
  }

  /** Pull to refresh, in the background: the daemon abandons a running load. */
  refresh(then = () => {}) {
    this.#background(this.client.feedsRefresh({ feedId: this.feedId }), then);
  }

  /** Resolves when no load or refresh asked for here runs (including those started by the `then` of another). */
  async settled() {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  /** Closes the feed in the daemon (a running load then fails there) and stops listening. */
  async close() {
    this.#dispose();
    if (this.feedId !== null && this.client.exitStatus === null) {
      try {
        await this.client.feedsClose({ feedId: this.feedId });
      } catch (error) {
        // Closed already, or the daemon is gone: either way nothing is left to close.
        if (!(error instanceof CatalogdError || error instanceof DaemonExitedError)) throw error;
      }
    }
    await this.settled();
  }

  #background(call, then) {
    const pending = call.then(
      () => true,
      (error) => {
        if (error instanceof CatalogdError) return true; // feeds/stateChanged carried it: the status line shows it
        if (error instanceof DaemonExitedError) return false; // the app notices and quits
        throw error;
      },
    );
    const done = pending.then((ok) => {
      // Out of the set first, so that `then` sees no load running and may start the next.
      this.#pending.delete(done);
      if (ok) then();
    });
    this.#pending.add(done);
  }
}

/** One line for an item. */
function describe(source, item) {
  if (source === 'photos') return `${item.id}  ${item.width}×${item.height}  by ${item.author ?? 'unknown'}`;
  if (source === 'products') {
    const name = item.nameKo + (item.nameEn ? ` (${item.nameEn})` : '');
    const supplier = item.supplier ? ` · ${item.supplier.name}` : '';
    return `#${item.id} ${name} · ₩${item.price.toLocaleString('en-US')}${supplier}`;
  }
  return JSON.stringify(item);
}

// Characters a terminal draws two cells wide: Hangul, CJK, full-width forms, most emoji.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

function cells(ch) {
  return WIDE.test(ch) ? 2 : 1;
}

/** `text` on one line of at most `width` cells, with … when cut. */
function fit(text, width) {
  const chars = [...text.replace(/[\r\n\t\f\v]+/g, ' ')]; // a name with a newline must not break the screen
  if (chars.reduce((n, ch) => n + cells(ch), 0) <= width) return chars.join('');
  let used = 0;
  let out = '';
  for (const ch of chars) {
    if (used + cells(ch) > width - 1) break;
    out += ch;
    used += cells(ch);
  }
  return `${out}…`;
}

/** The keys in a chunk of input: escape sequences whole, other characters one by one. */
function keys(text) {
  return text.match(/\x1b\[[0-9;]*[A-Za-z~]|\x1bO[A-Za-z]|\x1b.|[^]/gu) ?? [];
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A window on the feed, a cursor and a status line; turns keys into moves and loads. */
class Pager {
  cursor = 0;
  top = 0;
  frame = 0;
  #drawPending = false;

  constructor(feed, { interactive, out }) {
    this.feed = feed;
    this.interactive = interactive;
    this.out = out;
  }

  // Piped runs size themselves from $LINES and $COLUMNS.
  get rows() {
    return Math.max(3, (this.interactive ? this.out.rows : Number(process.env.LINES) || 14) - 2);
  }

  get columns() {
    return Math.max(20, this.interactive ? this.out.columns : Number(process.env.COLUMNS) || 80);
  }

  /** The feed changed. Piped, every change is a screen, in order; on a terminal, a burst of notifications is one redraw. */
  changed() {
    if (!this.interactive) return this.render();
    if (this.#drawPending) return;
    this.#drawPending = true;
    setImmediate(() => {
      this.#drawPending = false;
      this.render();
    });
  }

  move(delta) {
    const last = Math.max(0, this.feed.items.length - 1);
    this.cursor = Math.min(last, Math.max(0, this.cursor + delta));
    if (this.cursor < this.top) this.top = this.cursor;
    if (this.cursor >= this.top + this.rows) this.top = this.cursor - this.rows + 1;
  }

  /** The cursor is within a screen of the end of what is loaded. */
  nearEnd() {
    return this.feed.items.length - this.cursor <= this.rows;
  }

  /**
   * Loads the next page when the cursor nears the end, unless a load runs, the
   * feed ended, or the last load failed (Enter retries). Runs again after each
   * page, so a small page size still fills the screen.
   */
  wantMore() {
    const { feed } = this;
    if (this.nearEnd() && !feed.busy && feed.state !== 'ended' && feed.state !== 'failed') {
      feed.loadMore(() => this.wantMore());
    }
  }

  status() {
    const spinner = SPINNER[this.frame % SPINNER.length];
    switch (this.feed.state) {
      case 'loading':
        return `${spinner} loading…`;
      case 'refreshing':
        return `${spinner} refreshing…`;
      case 'failed':
        return `failed: ${this.feed.error} (Enter: retry)`;
      case 'ended':
        return 'the end';
      default:
        return '';
    }
  }

  render() {
    const { feed } = this;
    const width = this.columns;
    if (feed.items.length > 0) this.move(0); // a refresh may have shortened the list under the cursor
    const lines = [];
    for (let i = this.top; i < this.top + this.rows; i++) {
      if (i >= feed.items.length) {
        lines.push('');
        continue;
      }
      const text = fit(`${String(i + 1).padStart(4)}  ${describe(feed.source, feed.items[i])}`, width);
      if (i !== this.cursor) lines.push(text);
      else if (this.interactive) lines.push(`\x1b[7m${text}${' '.repeat(width - [...text].reduce((n, c) => n + cells(c), 0))}\x1b[0m`);
      else lines.push(`>${text.slice(1)}`);
    }
    const where = feed.items.length ? `${this.cursor + 1}/${feed.items.length}` : '0';
    lines.push(fit([feed.source, where, this.status()].filter(Boolean).join(' · '), width));
    lines.push(fit('j/k ↑/↓ move · space/b page · g/G top/end · Enter more · r refresh · q quit', width));
    // Home, each line then clear to its end: no flicker from clearing the whole screen.
    if (this.interactive) this.out.write(`\x1b[H${lines.map((l) => `${l}\x1b[K`).join('\r\n')}\x1b[J`);
    else this.out.write(`${lines.join('\n')}\n${'-'.repeat(Math.min(width, 40))}\n`);
  }

  /** Handles one key; false to quit. */
  key(key) {
    const moves = {
      j: 1, '\x1b[B': 1, '\x1bOB': 1,
      k: -1, '\x1b[A': -1, '\x1bOA': -1,
      ' ': this.rows, '\x1b[6~': this.rows,
      b: -this.rows, '\x1b[5~': -this.rows,
      g: -Infinity, '\x1b[H': -Infinity, '\x1b[1~': -Infinity,
      G: Infinity, '\x1b[F': Infinity, '\x1b[4~': Infinity,
    }; // prettier-ignore
    if (key === 'q' || key === '\x03') return false;
    if (Object.hasOwn(moves, key)) {
      this.move(moves[key]);
      this.render();
      this.wantMore();
    } else if (key === 'r') {
      this.cursor = 0;
      this.top = 0;
      this.feed.refresh(() => this.wantMore());
    } else if ((key === '\r' || key === '\n') && this.feed.state !== 'ended' && !this.feed.busy) {
      this.feed.loadMore(() => this.wantMore());
    }
    return true;
  }
}

const QUIT_SIGNALS = ['SIGTERM', 'SIGHUP'];

/** Keys from stdin until q or the end of the input; piped, each waits for the loads the previous one started. */
function readKeys(pager, interactive, client) {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let chain = Promise.resolve();
    let quit = false;
    const finish = () => {
      quit = true;
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      for (const signal of QUIT_SIGNALS) process.off(signal, finish);
      resolve();
    };
    const onData = (chunk) => {
      for (const key of keys(decoder.write(chunk))) {
        chain = chain
          .then(async () => {
            if (quit) return;
            if (!pager.key(key)) return finish();
            if (!interactive) await pager.feed.settled();
          })
          .catch(reject);
      }
    };
    const onEnd = () => chain.then(finish, reject);
    process.stdin.on('data', onData);
    process.stdin.on('end', onEnd);
    // Quitting on these too puts the terminal back (Ctrl-C is a key in raw mode).
    for (const signal of QUIT_SIGNALS) process.on(signal, finish);
    client.exited.then(finish); // the daemon is gone: quit rather than wait for a key
  });
}

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      source: { type: 'string', default: 'photos' },
      query: { type: 'string' },
      'page-size': { type: 'string' },
    },
    allowPositionals: true, // after `--`: the daemon's arguments
  });
  if (!['photos', 'products'].includes(values.source)) throw new Error('--source is photos or products');
  if (values.query && values.source !== 'products') throw new Error('--query filters the products feed');
  const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 100)) {
    throw new Error('--page-size must be 1 to 100');
  }

  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const client = await Client.start({ binary: daemonBinary(), args: positionals });
  const feed = new Feed(client, { source: values.source, query: values.query && { query: values.query }, pageSize });
  const pager = new Pager(feed, { interactive, out: process.stdout });
  feed.onChange = () => pager.changed();

  let spinner = null;
  const render = () => pager.render();
  try {
    await feed.open();
    if (interactive) {
      process.stdout.write('\x1b[?1049h\x1b[?25l'); // the alternate screen, no cursor
      process.stdin.setRawMode(true);
      spinner = setInterval(() => {
        if (feed.state === 'loading' || feed.state === 'refreshing') {
          pager.frame += 1;
          pager.render();
        }
      }, 80);
      process.stdout.on('resize', render);
      pager.render();
    }
    pager.wantMore();
    if (!interactive) await feed.settled();
    await readKeys(pager, interactive, client);
  } finally {
    if (spinner) clearInterval(spinner);
    if (interactive) {
      process.stdout.off('resize', render);
      process.stdin.setRawMode(false);
      process.stdout.write('\x1b[?25h\x1b[?1049l');
    }
    process.stdin.pause(); // no longer holds the process open
    await feed.close();
    await client.close();
  }
}

await main();
