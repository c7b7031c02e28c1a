// Shared by the client's own tests (kept out of test/, where `node --test`
// would run it as a test file, and out of the package): where the
// repository's daemon is, a client with a trace file to see what went over
// the wire, and small waiting aids. What users' tests need too is in
// testing/index.js, published as `catalogd/testing`.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startClient as startTestClient, tempDir } from '../testing/index.js';

export { tempDir };

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

/**
 * Starts a client with `catalogd/testing`'s startClient (a fresh data dir and
 * HOME, closed when the test ends, the daemon's stderr shown when the test
 * fails) on the repository's daemon, with a trace file. Returns the client and
 * `trace()`, the messages the daemon saw and sent: [{dir: '<-'|'->', message}].
 */
export async function startClient(t, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'catalogd-node-trace-'));
  const tracePath = join(dir, 'trace.log');
  try {
    const args = ['--trace', tracePath, ...(options.args ?? [])];
    const client = await startTestClient(t, { binary: binaryPath(), ...options, args });
    return { client, trace: () => readTrace(tracePath) };
  } finally {
    // Added after the client's own hook, so it runs once the daemon (which writes the trace) is gone.
    t.after(() => {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // A leftover temporary folder, not a failed test.
      }
    });
  }
}

/**
 * A temporary folder laid out like a user's project that installed the
 * package: node_modules/catalogd is this package, so that files written there
 * can `import ... from 'catalogd'` (and 'catalogd/testing') as users do.
 */
export function projectDir(t) {
  const dir = tempDir(t, 'catalogd-project-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(PACKAGE_DIR, join(dir, 'node_modules', 'catalogd'), 'dir');
  return dir;
}

/**
 * The fenced code blocks of README.md in `languages` (e.g. ['js', 'javascript']):
 * [{language, code, line}], `line` being where the block's code starts.
 */
export function readmeBlocks(languages) {
  const text = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  const blocks = [];
  const fence = /^```(\S*)[^\n]*\n([\s\S]*?)^```\s*$/gm;
  for (let match; (match = fence.exec(text)); ) {
    if (!languages.includes(match[1])) continue;
    const line = text.slice(0, match.index).split('\n').length + 1;
    blocks.push({ language: match[1], code: match[2], line });
  }
  return blocks;
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
