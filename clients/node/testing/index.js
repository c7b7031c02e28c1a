// catalogd/testing: the daemon in your own `node:test` integration tests.
//
//   import { test } from 'node:test';
//   import { startClient } from 'catalogd/testing';
//
//   test('a quote', async (t) => {
//     const client = await startClient(t);
//     ...
//   });
//
// Each client runs its own daemon in a fresh temporary folder that holds its
// data and stands in for HOME, so that tests neither see nor change the
// machine's catalog, config or caches, and can run side by side. The daemon is
// closed and the folder removed when the test ends; when the test failed, the
// end of the daemon's stderr (its logs, which usually say what went wrong) is
// attached to the test's report with `t.diagnostic`.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '../src/index.js';

/** How many lines of the daemon's stderr a failed test shows. */
export const STDERR_LINES = 50;

/**
 * A temporary folder, removed when the test ends.
 * @param {import('./index.js').TestContextLike} t
 * @param {string} [prefix]
 * @returns {string}
 */
export function tempDir(t, prefix = 'catalogd-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => removeQuietly(dir));
  return dir;
}

/**
 * Starts a client (`Client.start(options)`) whose daemon keeps its data in a
 * fresh temporary folder, with HOME and the XDG folders inside it, English
 * messages, and none of this process's `CATALOGD_*` settings: `options.env`
 * adds variables on top (or removes them, with null). Closes it when the test
 * ends, and when the test failed attaches the end of the daemon's stderr to
 * the report. The data dir is `(await client.daemonStatus()).dataDir`; a
 * second client on the same data: `startClient(t, {env: {CATALOGD_DATA_DIR: dataDir}})`.
 * @param {import('./index.js').TestContextLike} t the test's context
 * @param {import('../src/index.js').StartOptions} [options]
 * @returns {Promise<Client>}
 */
export async function startClient(t, options = {}) {
  const root = mkdtempSync(join(tmpdir(), 'catalogd-test-'));
  let client;
  try {
    client = await Client.start({ ...options, env: { ...isolatedEnvironment(root), ...options.env } });
  } catch (error) {
    // A daemon that exited during the handshake: the error quotes its stderr.
    removeQuietly(root);
    throw error;
  }
  // The daemon first, then its folder: it writes there until it exits.
  t.after(async () => {
    try {
      await client.close();
      // `passed` is there from Node 20.12 on; before, the logs are always shown.
      if (t.passed !== true) reportStderr(t, client);
    } finally {
      removeQuietly(root);
    }
  });
  return client;
}

/**
 * The variables that keep a daemon to `root`: its data dir, HOME and the XDG
 * folders (config, caches) inside it, English messages; this process's
 * CATALOGD_* settings removed (`$CATALOGD_BIN` still chooses the binary: the
 * client reads it before starting the daemon).
 */
function isolatedEnvironment(root) {
  const home = join(root, 'home');
  const env = {
    CATALOGD_DATA_DIR: join(root, 'data'),
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    LANG: 'C.UTF-8',
    LC_ALL: null,
    LC_MESSAGES: null,
  };
  mkdirSync(home);
  for (const name of Object.keys(process.env)) {
    if (name.startsWith('CATALOGD_') && !(name in env)) env[name] = null;
  }
  return env;
}

function reportStderr(t, client) {
  const tail = client.stderrTail(STDERR_LINES);
  const status = client.exitStatus;
  const how = status?.signal ? `killed by ${status.signal}` : `exit status ${status?.exitCode}`;
  t.diagnostic(`catalogd stderr (pid ${client.pid}, ${how}), last ${STDERR_LINES} lines:`);
  for (const line of tail === '' ? ['(empty)'] : tail.split('\n')) t.diagnostic(`  ${line}`);
}

/**
 * Removes a test's folder. A failure here (a daemon that is still writing to
 * it) must not fail the test or keep the hooks after it from running.
 */
function removeQuietly(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A leftover temporary folder, not a failed test.
  }
}
