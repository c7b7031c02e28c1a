#!/usr/bin/env node
// Scrolls the photo or product feed with the keyboard; pages load as you near the end.
//
//   node clients/node/examples/pager.mjs [--source photos|products] [--query TEXT]
//                                        [--page-size N] [-- DAEMON ARGS...]
//
// The feed lives in the daemon; client.openFeed mirrors it here as a Feed,
// which applies its pages (feeds/pageLoaded) and its changes in place
// (feeds/itemsChanged) and emits a 'change' event for each. When the cursor
// comes within a screen of the end of what is loaded the pager asks for the
// next page (feeds/loadMore), and it shows the state of the last
// feeds/stateChanged (loading, refreshing, failed, ended) in its status line.
// A product created, changed or deleted elsewhere (another terminal, another
// daemon on the same catalog) appears in place: the selected item stays
// selected and the rows on screen stay where they are. r is pull-to-refresh
// (feeds/refresh); quitting closes the feed (feeds/close).
//
// Keys: ↓/j and ↑/k move, PgDn/space and PgUp/b page, g/G go to the top or the
// end of what is loaded, Enter loads more now (and retries after a failure),
// r refreshes, q or Ctrl-C quits.
//
// On a terminal the keyboard is read in raw mode and the list is drawn full
// screen. When stdin or stdout is not a terminal, the keys come from stdin
// (`printf 'jjjjq' | node pager.mjs`): each is handled after the loads it
// started have ended, every change of the feed is printed as a screen of plain
// text (its size from $LINES and $COLUMNS), and the end of the input quits.

import { realpathSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Client, DaemonExitedError, RpcError } from 'catalogd';
import { daemonBinary } from './daemon.mjs';

/**
 * The cursor and the first row on screen after `changes` to a list of
 * `length` items: the selected item stays selected, and rows inserted or
 * removed above the screen move it by as much, so that what is on screen does
 * not jump. (Rows inserted or removed on screen above the cursor push it down
 * or pull it up.)
 * @param {number} cursor @param {number} top @param {number} length
 * @param {readonly import('../src/index.js').FeedItemChange[]} changes
 * @returns {[number, number]}
 */
export function follow(cursor, top, length, changes) {
  for (const change of changes) {
    if (change.op === 'insert') {
      const n = change.items.length;
      if (change.index <= cursor && cursor < length) cursor += n; // an empty list has no selected item to push
      if (change.index < top) top += n;
      length += n;
    } else if (change.op === 'remove') {
      length -= change.count;
      const end = change.index + change.count;
      if (cursor >= end) cursor -= change.count;
      else if (cursor >= change.index) cursor = change.index; // the selected item is gone: the one that took its place
      if (top >= end) top -= change.count;
      else if (top > change.index) top = change.index;
    }
  }
  return [cursor, top];
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

/** A window on the feed, a cursor and a status line; turns keys into moves and loads, and follows the feed's changes. */
class Pager {
  cursor = 0;
  top = 0;
  frame = 0;
  /** The id of the item under the cursor, to find it again after a reset. */
  selected = null;
  #drawPending = false;
  /** Loads and refreshes asked for here that have not answered yet. */
  #pending = new Set();

  /** @param {import('../src/index.js').Feed} feed */
  constructor(feed, { interactive, out }) {
    this.feed = feed;
    this.interactive = interactive;
    this.out = out;
    feed.on('change', (event) => this.changed(event));
  }

  // Piped runs size themselves from $LINES and $COLUMNS.
  get rows() {
    return Math.max(3, (this.interactive ? this.out.rows : Number(process.env.LINES) || 14) - 2);
  }

  get columns() {
    return Math.max(20, this.interactive ? this.out.columns : Number(process.env.COLUMNS) || 80);
  }

  /** The feed changed. Piped, every change is a screen, in order; on a terminal, a burst of notifications is one redraw. */
  changed(event) {
    const { items } = this.feed;
    if (event.kind === 'page' || event.kind === 'changes') {
      let before = items.length;
      for (const change of event.changes) {
        if (change.op === 'insert') before -= change.items.length;
        else if (change.op === 'remove') before += change.count;
      }
      [this.cursor, this.top] = follow(this.cursor, this.top, before, event.changes);
    } else if (event.kind === 'reset' && items.length > 0) {
      // A new list: the selected item where it now is, on the same row of the screen.
      const found = items.findIndex((item) => item.id === this.selected);
      if (found !== -1) {
        const row = this.cursor - this.top;
        this.cursor = found;
        this.top = Math.max(0, found - row);
      }
    }
    if (!this.interactive) return this.render();
    if (this.#drawPending) return;
    this.#drawPending = true;
    setImmediate(() => {
      this.#drawPending = false;
      this.render();
    });
  }

  move(delta) {
    const { items } = this.feed;
    const last = Math.max(0, items.length - 1);
    this.cursor = Math.min(last, Math.max(0, this.cursor + delta));
    if (this.cursor < this.top) this.top = this.cursor;
    if (this.cursor >= this.top + this.rows) this.top = this.cursor - this.rows + 1;
    if (items.length > 0) this.selected = items[this.cursor].id;
  }

  // Loads run in the background: the keyboard stays live while they run.

  /** A load or a refresh runs, or was asked for and has not answered yet. */
  get busy() {
    return this.feed.state === 'loading' || this.feed.state === 'refreshing' || this.#pending.size > 0;
  }

  /** Asks for the next page in the background; `then` runs when the answer is in. */
  loadMore(then = () => {}) {
    this.#background(this.feed.loadMore(), then);
  }

  /** Pull to refresh, in the background: the daemon abandons a running load. */
  refresh(then = () => {}) {
    this.#background(this.feed.refresh(), then);
  }

  /** Resolves when no load or refresh asked for here runs (including those started by the `then` of another). */
  async settled() {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  #background(call, then) {
    const pending = call.then(
      () => true,
      (error) => {
        if (error instanceof RpcError) return true; // feeds/stateChanged carried it: the status line shows it
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
    if (this.nearEnd() && !this.busy && feed.state !== 'ended' && feed.state !== 'failed') {
      this.loadMore(() => this.wantMore());
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
        return `failed: ${this.feed.error?.message ?? 'unknown error'} (Enter: retry)`;
      case 'ended':
        return 'the end';
      default:
        return '';
    }
  }

  render() {
    const { feed } = this;
    const { items } = feed;
    const width = this.columns;
    if (items.length > 0) this.move(0); // a refresh or a removal may have shortened the list under the cursor
    const lines = [];
    for (let i = this.top; i < this.top + this.rows; i++) {
      if (i >= items.length) {
        lines.push('');
        continue;
      }
      const text = fit(`${String(i + 1).padStart(4)}  ${describe(feed.source, items[i])}`, width);
      if (i !== this.cursor) lines.push(text);
      else if (this.interactive) lines.push(`\x1b[7m${text}${' '.repeat(width - [...text].reduce((n, c) => n + cells(c), 0))}\x1b[0m`);
      else lines.push(`>${text.slice(1)}`);
    }
    const where = items.length ? `${this.cursor + 1}/${items.length}` : '0';
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
      this.move(-Infinity); // pull-to-refresh happens at the top
      this.refresh(() => this.wantMore());
    } else if ((key === '\r' || key === '\n') && this.feed.state !== 'ended' && !this.busy) {
      this.loadMore(() => this.wantMore());
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
            if (!interactive) await pager.settled();
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
  let feed = null;
  let pager = null;
  let spinner = null;
  const render = () => pager.render();
  try {
    feed = await client.openFeed(values.source, { query: values.query && { query: values.query }, pageSize });
    pager = new Pager(feed, { interactive, out: process.stdout });
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
    if (!interactive) await pager.settled();
    await readKeys(pager, interactive, client);
  } finally {
    if (spinner) clearInterval(spinner);
    if (interactive && pager) {
      process.stdout.off('resize', render);
      process.stdin.setRawMode(false);
      process.stdout.write('\x1b[?25h\x1b[?1049l');
    }
    process.stdin.pause(); // no longer holds the process open
    await feed?.close(); // a load still running then fails in the daemon
    await pager?.settled();
    await client.close();
  }
}

// Run as a program (`node pager.mjs`), not when a test imports `follow`.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
