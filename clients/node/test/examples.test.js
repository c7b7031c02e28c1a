// The examples run against the real daemon.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { PACKAGE_DIR, binaryPath, tempDir } from '../testing/helpers.js';

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

test('the pager scrolls, loads the next page with an indicator, and quits on q', async (t) => {
  const input = `${'j'.repeat(12)}q`;
  const { code, stdout, stderr } = await runExample(t, 'pager.mjs', {
    args: ['--page-size', '10'],
    input,
    env: { LINES: '8', COLUMNS: '60' },
  });
  assert.equal(code, 0, stderr);
  const screens = stdout.split(/^-+\n/m).filter(Boolean);
  assert.ok(screens.length >= 14, `${screens.length} screens`);
  assert.match(screens[0], /⠋ loading…/, 'the first load shows the indicator');
  assert.match(screens.at(-1), /^>\s*13 “/m, 'the cursor moved 12 lines');
  assert.match(screens.at(-1), /13\/20/, 'the second page was loaded as the cursor neared the end');
  assert.ok(
    screens.some((s) => /\d+\/10 · ⠋ loading…/.test(s)),
    'a load in the middle shows the indicator',
  );
  for (const screen of screens) assert.ok(screen.split('\n').every((line) => [...line].length <= 60));
});
