// The examples run against the real daemon.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { PACKAGE_DIR, REPO_ROOT, binaryPath, readTrace, tempDir } from '../testing/helpers.js';

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

test('the pager, piped, scrolls the product feed, loads more, refreshes and closes it', async (t) => {
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
  assert.ok(shown.some((s) => status(s) === 'products · 0 · ⠋ refreshing…'), 'a refresh empties the list at once');
  assert.match(shown.at(-1), /^> +3  #/m);
  assert.equal(status(shown.at(-1)), 'products · 3/10', 'after the refresh: one page, scrolled');
  for (const screen of shown) {
    assert.equal(screen.split('\n').length, 9, screen);
    for (const line of screen.split('\n')) assert.ok(cells(line) <= 60, line);
  }
  const asked = traceMethods(trace).filter((m) => ['feeds/open', 'feeds/loadMore', 'feeds/refresh', 'feeds/close'].includes(m));
  assert.deepEqual(asked, ['feeds/open', 'feeds/loadMore', 'feeds/loadMore', 'feeds/refresh', 'feeds/close']);
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
  const failed = 'photos · 0 · failed: The photos server is unavailable. (Enter: retry)';
  const loading = 'photos · 0 · ⠋ loading…';
  assert.deepEqual(screens(stdout).map(status), [loading, failed, failed, loading, failed], 'j does not retry; Enter does');
  assert.equal(traceMethods(trace).filter((m) => m === 'feeds/loadMore').length, 2);
});

const python = spawnSync('python3', ['--version']).status === 0;

test('the pager on a terminal reads raw keys and restores the terminal', { skip: !python && 'needs python3 for a pseudo-terminal' }, async (t) => {
  const dir = tempDir(t);
  const trace = join(dir, 'trace.log');
  const steps = [
    ['wait', 3],
    ['raw', null],
    ['mark', null],
    ...Array.from({ length: 8 }, () => [['send', 'j'], ['wait', 0.1]]).flat(),
    ...Array.from({ length: 8 }, () => [['send', '\x1b[B'], ['wait', 0.1]]).flat(), // arrow keys
    ['wait', 0.5],
    ['mark', null],
    ['send', 'r'],
    ['wait', 1],
    ['mark', null],
    ['send', '\x03'], // Ctrl-C quits like q
    ['wait', 1],
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
  assert.match(refreshed, /photos · 1\/10\x1b\[K/);
  assert.ok(quit.endsWith('\x1b[?25h\x1b[?1049l'), 'the cursor and the main screen come back');
  assert.ok(run.restored, 'the terminal is left as it was found');
  const methods = traceMethods(trace);
  assert.equal(methods.filter((m) => m === 'feeds/refresh').length, 1);
  assert.ok(methods.indexOf('feeds/close') < methods.indexOf('shutdown'));
});
