// The options both clients agree on (issue #15): env extends this process's
// environment and null/undefined removes a variable, --framing is passed
// unless args have it, the handshake has its own 30 s limit.

import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  Client,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  DaemonExitedError,
  RequestTimeoutError,
  UsageError,
} from '../src/index.js';
import { binaryPath, rejection, startClient, tempDir } from '../test-support/helpers.js';

/**
 * A stand-in daemon that writes its environment and arguments next to itself
 * and exits 3; resolves with what it saw.
 */
async function whatTheDaemonSees(t, options) {
  const script = join(tempDir(t), 'fake-catalogd');
  writeFileSync(script, '#!/bin/sh\nenv > "$0.env"\nprintf \'%s\\n\' "$@" > "$0.args"\nexit 3\n');
  chmodSync(script, 0o755);
  const error = await rejection(Client.start({ binary: script, ...options }));
  assert.ok(error instanceof DaemonExitedError, String(error));
  assert.equal(error.exitCode, 3);
  const env = Object.fromEntries(
    readFileSync(`${script}.env`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const args = readFileSync(`${script}.args`, 'utf8').split('\n').filter(Boolean);
  return { env, args };
}

test('the defaults: 30 s per request, 30 s for the handshake, 5 s for close', () => {
  assert.equal(DEFAULT_TIMEOUT_MS, 30_000);
  assert.equal(DEFAULT_HANDSHAKE_TIMEOUT_MS, 30_000);
  assert.equal(DEFAULT_CLOSE_TIMEOUT_MS, 5_000);
});

test('env: not given, the daemon inherits this process environment unchanged', async (t) => {
  process.env.CATALOGD_NODE_TEST_INHERITED = 'inherited';
  t.after(() => delete process.env.CATALOGD_NODE_TEST_INHERITED);
  const { env } = await whatTheDaemonSees(t, {});
  assert.equal(env.CATALOGD_NODE_TEST_INHERITED, 'inherited');
  assert.equal(env.PATH, process.env.PATH);
});

test('env: given variables extend and override it; undefined or null removes one', async (t) => {
  process.env.CATALOGD_NODE_TEST_INHERITED = 'inherited';
  process.env.CATALOGD_NODE_TEST_OVERRIDDEN = 'before';
  process.env.CATALOGD_NODE_TEST_NULL = 'present';
  process.env.CATALOGD_NODE_TEST_UNDEFINED = 'present';
  t.after(() => {
    for (const name of ['INHERITED', 'OVERRIDDEN', 'NULL', 'UNDEFINED']) delete process.env[`CATALOGD_NODE_TEST_${name}`];
  });
  const { env } = await whatTheDaemonSees(t, {
    env: {
      CATALOGD_NODE_TEST_ADDED: 'added',
      CATALOGD_NODE_TEST_OVERRIDDEN: 'after',
      CATALOGD_NODE_TEST_NULL: null,
      CATALOGD_NODE_TEST_UNDEFINED: undefined,
    },
  });
  assert.equal(env.CATALOGD_NODE_TEST_INHERITED, 'inherited');
  assert.equal(env.CATALOGD_NODE_TEST_ADDED, 'added');
  assert.equal(env.CATALOGD_NODE_TEST_OVERRIDDEN, 'after');
  assert.equal('CATALOGD_NODE_TEST_NULL' in env, false, 'null removes');
  assert.equal('CATALOGD_NODE_TEST_UNDEFINED' in env, false, 'undefined removes');
  assert.equal(env.PATH, process.env.PATH);
});

test('--framing is passed unless args have it', async (t) => {
  assert.deepEqual((await whatTheDaemonSees(t, {})).args, ['--framing', 'ndjson']);
  assert.deepEqual((await whatTheDaemonSees(t, { framing: 'lsp', args: ['--log-level', 'debug'] })).args, [
    '--framing',
    'lsp',
    '--log-level',
    'debug',
  ]);
  assert.deepEqual((await whatTheDaemonSees(t, { args: ['--framing=auto'] })).args, ['--framing=auto']);
  assert.deepEqual((await whatTheDaemonSees(t, { args: ['--framing', 'auto'] })).args, ['--framing', 'auto']);
});

test('a CATALOGD_FRAMING in the environment cannot break the session', async (t) => {
  for (const framing of ['ndjson', 'lsp']) {
    const other = framing === 'ndjson' ? 'lsp' : 'ndjson';
    const { client } = await startClient(t, { framing, env: { CATALOGD_FRAMING: other } });
    assert.deepEqual(await client.daemonEcho([framing]), [framing]);
  }
});

test('the handshake has its own time limit (handshakeTimeout), not the requests one', async (t) => {
  const script = join(tempDir(t), 'silent-catalogd');
  writeFileSync(script, '#!/bin/sh\nexec sleep 30\n');
  chmodSync(script, 0o755);

  let started = Date.now();
  const error = await rejection(Client.start({ binary: script, handshakeTimeout: 200 }));
  assert.ok(error instanceof RequestTimeoutError, String(error));
  assert.equal(error.method, 'initialize');
  assert.equal(error.timeout, 200);
  assert.ok(Date.now() - started < 3000, 'the silent daemon was killed, not waited for');

  started = Date.now();
  const later = await rejection(Client.start({ binary: script, timeout: 50, handshakeTimeout: 600 }));
  assert.ok(later instanceof RequestTimeoutError, String(later));
  assert.equal(later.timeout, 600);
  assert.ok(Date.now() - started >= 550, 'the request timeout does not shorten the handshake');
});

test('a request timeout of Infinity or 0 means none; a bad option is a UsageError', async (t) => {
  const { client } = await startClient(t, { timeout: Infinity });
  assert.deepEqual(await client.daemonSleep({ ms: 20 }), { slept: 20 });
  await assert.rejects(Client.start({ binary: binaryPath(), handshakeTimeout: -5 }), UsageError);
  await assert.rejects(Client.start({ binary: binaryPath(), trace: 'yes' }), UsageError);
  await assert.rejects(Client.start({ binary: binaryPath(), env: 'HOME=/' }), UsageError);
});
