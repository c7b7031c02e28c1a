// Shared by the tests: where the daemon is, a fresh data dir per client, and
// a trace file to see what went over the wire.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '../src/index.js';

export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..');

/** `$CATALOGD_BIN` (a relative path is taken from the repo root), else the debug build. */
export function binaryPath() {
  const fromEnv = process.env.CATALOGD_BIN;
  const path = fromEnv ? (isAbsolute(fromEnv) ? fromEnv : join(REPO_ROOT, fromEnv)) : join(REPO_ROOT, '.build', 'debug', 'catalogd');
  if (!existsSync(path)) {
    throw new Error(`catalogd binary not found at ${path}: build it with \`swift build\` or set CATALOGD_BIN`);
  }
  return path;
}

/** A temporary directory removed when the test ends. */
export function tempDir(t, prefix = 'catalogd-node-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => removeQuietly(dir));
  return dir;
}

/**
 * Removes a test's folder. `after` hooks run in the order they were added, so
 * a daemon started after its folder was made may still be writing to it (the
 * catalog opens in the background after initialize): a failure here must not
 * keep the hooks after it (closing that daemon) from running.
 */
function removeQuietly(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A leftover temporary folder, not a failed test.
  }
}

/**
 * Starts a client on a fresh data dir with a trace file; closes it when the
 * test ends. Returns the client and `trace()`, the messages the daemon saw
 * and sent: [{dir: '<-'|'->', message}].
 */
export async function startClient(t, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'catalogd-node-'));
  const tracePath = join(dir, 'trace.log');
  let client;
  try {
    client = await Client.start({
      binary: binaryPath(),
      ...options,
      args: ['--trace', tracePath, ...(options.args ?? [])],
      // English error messages whatever the machine's language.
      env: { CATALOGD_DATA_DIR: join(dir, 'data'), LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', ...options.env },
    });
  } catch (error) {
    removeQuietly(dir);
    throw error;
  }
  // The daemon first, then its folder: it writes there until it exits.
  t.after(async () => {
    await client.close();
    removeQuietly(dir);
  });
  const trace = () => readTrace(tracePath);
  return { client, trace, dir };
}

/** The messages of a trace file. */
export function readTrace(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /^\S+ (<-|->) (.*)$/.exec(line);
      if (!match) return { dir: '?', raw: line };
      let message;
      try {
        message = JSON.parse(match[2]);
      } catch {
        message = undefined;
      }
      return { dir: match[1], message, raw: match[2] };
    });
}

/** Waits until `predicate()` is true (polling), or fails after `ms`. */
export async function eventually(predicate, ms = 3000, what = 'condition') {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The rejection of a promise that must reject (fails when it resolves). */
export async function rejection(promise) {
  try {
    const value = await promise;
    throw Object.assign(new Error(`expected a rejection, got ${JSON.stringify(value)}`), { resolvedInstead: true });
  } catch (error) {
    if (error?.resolvedInstead) throw error;
    return error;
  }
}

/** Whether the daemon sends feeds/itemsChanged (live feeds: changes in place, a refresh keeps the items until its first page). */
export async function servesLiveFeeds(client) {
  const doc = await client.rpcDiscover();
  return (doc['x-notifications'] ?? []).some((n) => n.name === 'feeds/itemsChanged');
}
