// The examples run against the real daemon.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client } from '../src/index.js';
import { follow } from '../examples/pager.mjs';
import { PACKAGE_DIR, REPO_ROOT, binaryPath, eventually, readTrace, servesLiveFeeds, tempDir } from '../test-support/helpers.js';

/** Runs an example with `input` on stdin; resolves with {code, stdout, stderr}. */
function runExample(t, name, { args = [], input = '', env = {} } = {}) {
  const child = spawn(process.execPath, [join(PACKAGE_DIR, 'examples', name), ...args], {
    env: { ...process.env, CATALOGD_BIN: binaryPath(), CATALOGD_DATA_DIR: tempDir(t), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

test('the tour runs every service: a product and its listUpdated, a photo feed scrolled to its end, stores near City Hall', async (t) => {
  const { code, stdout, stderr } = await runExample(t, 'tour.mjs');
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^connected to catalogd \d/);
  assert.match(stdout, /## daemon\n/);
  assert.match(stdout, /## quotes\n\(loading… refresh disabled\)\n\(loaded: refresh enabled\)\n“.+” — .+\n/);
  assert.match(stdout, /no such author: .*"resource":"quote"/);
  assert.match(stdout, /## products\n.*\n\(list updated: created (\d+)\)\n/);
  assert.match(stdout, /scrolled to its end: pages 0\.\.<30, 30\.\.<60, 60\.\.<90, 90\.\.<120; 120 photos\n/);
  assert.match(stdout, /feeds\/stateChanged: loading 0, idle 30, .*, loading 90, ended 120\n/);
  assert.match(stdout, /convenience stores within 1 km of Seoul City Hall: \d+, nearest first:\n  · .+, \d+ m\n/);
  assert.doesNotMatch(stdout, /skipped/);
  assert.doesNotMatch(stdout, /failed:/);
});

/** The methods of the messages in a trace file, in order. */
function traceMethods(path) {
  return readTrace(path)
    .map(({ message }) => message?.method)
    .filter(Boolean);
}

/** The screens a piped run of the pager printed. */
function screens(stdout) {
  return stdout.split(/^-+\n/m).filter(Boolean);
}

/** The status line of a screen. */
function status(screen) {
  return screen.split('\n').at(-3);
}

/** Terminal cells of a line: Hangul syllables take two. */
function cells(line) {
  return [...line].reduce((n, ch) => n + (ch >= '가' && ch <= '힣' ? 2 : 1), 0);
}

/** Whether the daemon under test has live feeds (a refresh then keeps the items and reloads as many as were loaded). */
async function liveFeeds(t) {
  const client = await Client.start({ binary: binaryPath(), env: { CATALOGD_DATA_DIR: tempDir(t) } });
  try {
    return await servesLiveFeeds(client);
  } finally {
    await client.close();
  }
}

test('the pager, piped, scrolls the product feed, loads more, refreshes and closes it', async (t) => {
  const live = await liveFeeds(t);
  const trace = join(tempDir(t), 'trace.log');
  const { code, stdout, stderr } = await runExample(t, 'pager.mjs', {
    args: ['--source', 'products', '--page-size', '10', '--', '--trace', trace],
    input: `${'j'.repeat(12)}rjjq`,
    env: { LINES: '8', COLUMNS: '60' },
  });
  assert.equal(code, 0, stderr);
  const shown = screens(stdout);
  assert.equal(status(shown[0]), 'products · 0 · ⠋ loading…', 'the first load shows its state');
  assert.ok(shown.slice(2).some((s) => /^products · \d+\/10 · ⠋ loading…$/.test(status(s))), 'scrolling loads more');
  assert.ok(shown.some((s) => /^> +13  #/m.test(s)), 'the cursor went 12 lines down');
  if (live) {
    // The items stay while the refresh runs, and it reloads as many as were loaded.
    assert.ok(shown.some((s) => status(s) === 'products · 1/20 · ⠋ refreshing…'), 'the list stays while it refreshes');
    assert.match(shown.at(-1), /^> +3  #/m);
    assert.equal(status(shown.at(-1)), 'products · 3/20', 'after the refresh: scrolled');
  } else {
    // A daemon before live feeds drops the items when a refresh starts and loads one page.
    assert.ok(shown.some((s) => status(s) === 'products · 0 · ⠋ refreshing…'), 'a refresh empties the list at once');
    assert.match(shown.at(-1), /^> +3  #/m);
    assert.equal(status(shown.at(-1)), 'products · 3/10', 'after the refresh: one page, scrolled');
  }
  for (const screen of shown) {
    assert.equal(screen.split('\n').length, 9, screen);
    for (const line of screen.split('\n')) assert.ok(cells(line) <= 60, line);
  }
  const asked = traceMethods(trace).filter((m) => ['feeds/open', 'feeds/loadMore', 'feeds/refresh', 'feeds/close'].includes(m));
  assert.deepEqual(asked, ['feeds/open', 'feeds/loadMore', 'feeds/loadMore', 'feeds/refresh', 'feeds/close']);
});

const ins = (index, n = 1) => ({ op: 'insert', index, items: Array.from({ length: n }, (_, i) => ({ id: `new-${index}-${i}` })) });
const rem = (index, count = 1) => ({ op: 'remove', index, count });

test('the pager keeps the selected item and the screen where they are (cursor 10, top 5)', () => {
  const cases = [
    [[ins(0)], [11, 6], 'above the screen: everything moves down one, nothing jumps'],
    [[ins(5, 2)], [12, 5], 'at the first row on screen: it shows there, the cursor follows its item'],
    [[ins(8)], [11, 5], 'on screen above the cursor'],
    [[ins(10)], [11, 5], 'at the cursor: the selected item moved down'],
    [[ins(11), ins(40)], [10, 5], 'below the cursor: nothing moves'],
    [[rem(0, 2)], [8, 3], 'above the screen'],
    [[rem(4, 3)], [7, 4], 'across the first row on screen'],
    [[rem(10)], [10, 5], 'the selected item: the next one is selected'],
    [[rem(8, 5)], [8, 5], 'a run through the cursor'],
    [[{ op: 'update', index: 10, items: [{ id: 'x' }] }], [10, 5], 'an update moves nothing'],
    [[rem(0), ins(0, 3)], [12, 7], 'in order, each on the list the previous left'],
  ];
  for (const [changes, expected, why] of cases) assert.deepEqual(follow(10, 5, 50, changes), expected, why);
  assert.deepEqual(follow(0, 0, 0, [ins(0, 10)]), [0, 0], 'the first page does not push the cursor');
  assert.deepEqual(follow(0, 0, 1, [ins(0, 2)]), [2, 0]);
});

test('the pager shows a product created by another daemon on the same catalog in place', async (t) => {
  const data = tempDir(t);
  const other = await Client.start({ binary: binaryPath(), env: { CATALOGD_DATA_DIR: data } });
  t.after(() => other.close());
  const live = await servesLiveFeeds(other);
  const child = spawn(process.execPath, [join(PACKAGE_DIR, 'examples', 'pager.mjs'), '--source', 'products', '--page-size', '10'], {
    env: { ...process.env, CATALOGD_BIN: binaryPath(), CATALOGD_DATA_DIR: data, LINES: '8', COLUMNS: '80' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise((resolve) => child.on('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  /** The first screen from `from` on that matches, and the index after it. */
  const waitFor = async (pattern, from) =>
    eventually(
      () => {
        const shown = stdout.split(/^-+\n/m).slice(0, -1); // complete screens: each ends with its rule
        const i = shown.findIndex((s, k) => k >= from && pattern.test(s));
        return i === -1 ? null : [shown[i], i + 1];
      },
      30_000,
      `a screen matching ${pattern}
${stdout.slice(-1000)}${stderr}`,
    );
  try {
    let [, next] = await waitFor(/^products · 1\/10$/m, 0);
    child.stdin.write('jjj');
    let screen;
    [screen, next] = await waitFor(/^products · 4\/10$/m, next);
    const selected = /^> +4  #(\d+) /m.exec(screen)[1];
    const created = await other.productsCreate({ nameKo: '다른 터미널에서 만든 상품', price: 1000 });
    // Newest first: it comes at the top; the same product stays selected, one further down.
    [screen] = await waitFor(new RegExp(`^> +5  #${selected} `, 'm'), next);
    if (live) {
      assert.equal(status(screen), 'products · 5/11');
      assert.match(screen, new RegExp(`^ +1  #${created.id} `, 'm'));
    }
    child.stdin.end('q');
    assert.equal(await exited, 0, stderr);
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
});

test('the pager scrolls the photo feed to its end', async (t) => {
  const { code, stdout, stderr } = await runExample(t, 'pager.mjs', {
    args: ['--page-size', '50'],
    input: 'GGGG', // the end of the input quits
    env: { LINES: '10', COLUMNS: '80' },
  });
  assert.equal(code, 0, stderr);
  const last = screens(stdout).at(-1);
  assert.equal(status(last), 'photos · 120/120 · the end');
  assert.match(last, /^> *120  [0-9a-f]+  \d+×\d+  by /m);
});

test('the pager shows a failed load and retries it on Enter', async (t) => {
  const trace = join(tempDir(t), 'trace.log');
  const { code, stdout, stderr } = await runExample(t, 'pager.mjs', {
    args: ['--', '--photos-url', 'http://127.0.0.1:9', '--trace', trace],
    input: 'j\nq',
    env: { LINES: '6', COLUMNS: '100' },
  });
  assert.equal(code, 0, stderr);
  const failed = 'photos · 0 · failed: The photos server cannot be reached; try again later. (Enter: retry)';
  const loading = 'photos · 0 · ⠋ loading…';
  assert.deepEqual(screens(stdout).map(status), [loading, failed, failed, loading, failed], 'j does not retry; Enter does');
  assert.equal(traceMethods(trace).filter((m) => m === 'feeds/loadMore').length, 2);
});

const python = spawnSync('python3', ['--version']).status === 0;

test('the pager on a terminal reads raw keys and restores the terminal', { skip: !python && 'needs python3 for a pseudo-terminal' }, async (t) => {
  const live = await liveFeeds(t);
  const dir = tempDir(t);
  const trace = join(dir, 'trace.log');
  // Each step waits for what it should bring (generous deadlines: a loaded machine is slow).
  const steps = [
    ['until', ['photos · 1/10\x1b[K', 60]],
    ['raw', null],
    ['mark', null],
    ...Array.from({ length: 8 }, () => [['send', 'j'], ['wait', 0.05]]).flat(),
    ...Array.from({ length: 8 }, () => [['send', '\x1b[B'], ['wait', 0.05]]).flat(), // arrow keys
    ['until', ['photos · 17/30\x1b[K', 60]],
    ['mark', null],
    ['send', 'r'],
    ['until', [`photos · 1/${live ? 30 : 10}\x1b[K`, 60]],
    ['mark', null],
    ['send', '\x03'], // Ctrl-C quits like q
  ];
  const child = spawn(
    'python3',
    [join(REPO_ROOT, 'scripts', 'pty-run.py'), '12', '100', JSON.stringify(steps), '--',
      process.execPath, join(PACKAGE_DIR, 'examples', 'pager.mjs'), '--page-size', '10', '--', '--trace', trace],
    { env: { ...process.env, CATALOGD_BIN: binaryPath(), CATALOGD_DATA_DIR: join(dir, 'data') } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise((resolve) => child.on('close', resolve));
  const run = JSON.parse(stdout || '{}');
  assert.ok(run.segments, stderr);
  const [start, moved, refreshed, quit] = run.segments;
  assert.equal(run.exitCode, 0, start + quit);
  assert.ok(start.startsWith('\x1b[?1049h\x1b[?25l'), 'the alternate screen, no cursor');
  assert.match(start, /photos · 1\/10\x1b\[K/);
  assert.deepEqual(run.raw, [true], 'raw: keys one by one, Ctrl-C a key');
  assert.match(moved, /\x1b\[7m  17  [0-9a-f]+ /, 'the cursor went down 16 lines');
  assert.match(moved, /photos · 17\/30\x1b\[K/, 'pages loaded as the cursor neared the end');
  // A refresh reloads one page, or, on a daemon with live feeds, as many as were loaded.
  assert.match(refreshed, live ? /photos · 1\/30\x1b\[K/ : /photos · 1\/10\x1b\[K/);
  assert.ok(quit.endsWith('\x1b[?25h\x1b[?1049l'), 'the cursor and the main screen come back');
  assert.ok(run.restored, 'the terminal is left as it was found');
  const methods = traceMethods(trace);
  assert.equal(methods.filter((m) => m === 'feeds/refresh').length, 1);
  assert.ok(methods.indexOf('feeds/close') < methods.indexOf('shutdown'));
});
