#!/usr/bin/env node
// Scrolls a list of quotes with the keyboard, loading the next page as the
// cursor nears the end, with a loading indicator.
//
//   node clients/node/examples/pager.mjs [--tag TAG] [--page-size N]
//
// Keys: ↓/j and ↑/k move, PgDn/space and PgUp/b page, g/G go to the top or the
// end of what is loaded, r reloads from the start, q or Ctrl-C quits.
//
// The list is a `Feed`: what is loaded, the next page, the loading state. It
// is the shape of the daemon's feeds (feeds/open, feeds/loadMore,
// feeds/stateChanged); when feeds land, QuoteFeed is replaced by one backed by
// them and the screen code stays as it is.
//
// Without a terminal (stdin piped), keys are read from stdin, each handled
// after the load it started has ended, and every screen is printed as plain
// text: `printf 'jjjq' | node pager.mjs` is a test.

import { parseArgs } from 'node:util';

import { Client } from '../src/index.js';

/** Pages of quotes/list as a growing list. */
class QuoteFeed {
  /** Loaded quotes, in order. */
  items = [];
  /** 'idle' | 'loading' | 'ended' | 'failed'. */
  state = 'idle';
  /** The error of the last failed load. */
  error = null;
  /** The page loadMore fetches next. */
  #nextPage = 1;
  /** The running load, so that a second loadMore joins it. */
  #loading = null;
  /** Bumped by refresh: a page of an older generation is dropped. */
  #generation = 0;

  /** @param {Client} client @param {{tag?: string, pageSize: number, onChange: () => void}} options */
  constructor(client, { tag, pageSize, onChange }) {
    this.client = client;
    this.tag = tag;
    this.pageSize = pageSize;
    this.onChange = onChange;
  }

  /** Appends the next page, unless the end is reached; joins a load that is running. */
  loadMore() {
    if (this.state === 'ended') return Promise.resolve();
    this.#loading ??= this.#load(this.#generation).finally(() => (this.#loading = null));
    return this.#loading;
  }

  /** Drops what is loaded and loads the first page again. */
  refresh() {
    this.#generation += 1;
    this.#loading = null;
    this.items = [];
    this.#nextPage = 1;
    this.state = 'idle';
    return this.loadMore();
  }

  /** Resolves when no load is running. */
  async settled() {
    while (this.#loading) await this.#loading;
  }

  async #load(generation) {
    this.state = 'loading';
    this.onChange();
    try {
      const params = { page: this.#nextPage, limit: this.pageSize };
      if (this.tag) params.tag = this.tag;
      const page = await this.client.quotesList(params);
      if (generation !== this.#generation) return;
      this.items.push(...page.items);
      this.#nextPage = page.nextPage;
      this.state = page.nextPage === null ? 'ended' : 'idle';
      this.error = null;
    } catch (error) {
      if (generation !== this.#generation) return;
      this.state = 'failed';
      this.error = error;
    }
    this.onChange();
  }
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** The screen: a window on the feed, a cursor, a status line. */
class Pager {
  cursor = 0;
  top = 0;
  frame = 0;
  /** True while the daemon says a quote fetch is running (quotes/loading). */
  daemonLoading = false;

  constructor({ interactive, out }) {
    this.interactive = interactive;
    this.out = out;
  }

  get rows() {
    return Math.max(3, (this.interactive ? this.out.rows : Number(process.env.LINES) || 12) - 2);
  }

  get columns() {
    return Math.max(20, this.interactive ? this.out.columns : Number(process.env.COLUMNS) || 80);
  }

  /** Moves the cursor by `delta` lines and keeps it on screen. */
  move(feed, delta) {
    const last = Math.max(0, feed.items.length - 1);
    this.cursor = Math.min(last, Math.max(0, this.cursor + delta));
    if (this.cursor < this.top) this.top = this.cursor;
    if (this.cursor >= this.top + this.rows) this.top = this.cursor - this.rows + 1;
  }

  /** True when the cursor is within a screen of the end of what is loaded. */
  nearEnd(feed) {
    return feed.items.length - this.cursor <= this.rows;
  }

  render(feed) {
    const width = this.columns;
    const lines = [];
    for (let i = this.top; i < this.top + this.rows; i++) {
      const quote = feed.items[i];
      if (!quote) {
        lines.push('');
        continue;
      }
      const text = fit(`${String(i + 1).padStart(4)}  “${quote.content}” — ${quote.author}`, width);
      lines.push(i === this.cursor ? (this.interactive ? `\x1b[7m${text.padEnd(width)}\x1b[0m` : `>${text.slice(1)}`) : text);
    }
    const loading = feed.state === 'loading' || this.daemonLoading;
    const status = loading
      ? `${SPINNER[this.frame % SPINNER.length]} loading…`
      : feed.state === 'ended'
        ? 'the end'
        : feed.state === 'failed'
          ? `failed: ${feed.error.message} (r: retry)`
          : '';
    const where = feed.items.length ? `${this.cursor + 1}/${feed.items.length}` : '0';
    lines.push(fit([where, feed.tag && `#${feed.tag}`, status].filter(Boolean).join(' · '), width));
    lines.push(fit('j/k ↑/↓ move · space/b page · g/G top/end · r reload · q quit', width));
    if (this.interactive) this.out.write(`\x1b[H\x1b[2J${lines.join('\r\n')}`);
    else this.out.write(`${lines.join('\n')}\n${'-'.repeat(Math.min(width, 40))}\n`);
  }
}

/** The keys in a chunk of input: escape sequences whole, other characters one by one. */
function keys(text) {
  return text.match(/\x1b\[[0-9;]*[A-Za-z~]|\x1b.|[^]/gu) ?? [];
}

function fit(text, width) {
  const flat = text.replace(/\s+/g, ' ');
  return [...flat].length > width ? `${[...flat].slice(0, width - 1).join('')}…` : flat;
}

async function main() {
  const { values } = parseArgs({
    options: { tag: { type: 'string' }, 'page-size': { type: 'string', default: '20' } },
  });
  const pageSize = Number(values['page-size']);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new Error('--page-size must be 1 to 100');

  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const client = await Client.start();
  const pager = new Pager({ interactive, out: process.stdout });
  let feed;
  const redraw = () => pager.render(feed);
  feed = new QuoteFeed(client, { tag: values.tag, pageSize, onChange: redraw });
  client.on('quotes/loading', ({ isLoading }) => {
    pager.daemonLoading = isLoading;
  });

  let spinner = null;
  if (interactive) {
    process.stdout.write('\x1b[?1049h\x1b[?25l'); // alternate screen, hide the cursor
    process.stdin.setRawMode(true);
    spinner = setInterval(() => {
      if (feed.state === 'loading' || pager.daemonLoading) {
        pager.frame += 1;
        redraw();
      }
    }, 80);
    process.stdout.on('resize', redraw);
  }

  let quit = false;
  const handle = async (key) => {
    switch (key) {
      case 'q':
      case '\x03': // Ctrl-C
        quit = true;
        return;
      case 'j':
      case '\x1b[B':
        pager.move(feed, 1);
        break;
      case 'k':
      case '\x1b[A':
        pager.move(feed, -1);
        break;
      case ' ':
      case '\x1b[6~':
        pager.move(feed, pager.rows);
        break;
      case 'b':
      case '\x1b[5~':
        pager.move(feed, -pager.rows);
        break;
      case 'g':
        pager.move(feed, -Infinity);
        break;
      case 'G':
        pager.move(feed, Infinity);
        break;
      case 'r':
        pager.cursor = 0;
        pager.top = 0;
        feed.refresh();
        return;
      default:
        return;
    }
    redraw();
    if (pager.nearEnd(feed) && feed.state !== 'loading') feed.loadMore();
  };

  try {
    await feed.loadMore();
    for await (const chunk of process.stdin) {
      for (const key of keys(chunk.toString('utf8'))) {
        await handle(key);
        if (!interactive) await feed.settled();
        if (quit) break;
      }
      if (quit) break;
    }
  } finally {
    if (spinner) clearInterval(spinner);
    if (interactive) {
      process.stdin.setRawMode(false);
      process.stdout.write('\x1b[?25h\x1b[?1049l');
    }
    await client.close();
  }
}

await main();
