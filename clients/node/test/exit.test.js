// When the daemon exits, pending calls fail at once with DaemonExitedError
// quoting the end of its stderr.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ClientClosedError, DaemonExitedError, RequestCancelled } from '../src/index.js';
import { rejection, startClient } from '../test-support/helpers.js';

test('daemon killed mid-call: DaemonExitedError at once, with signal and stderr tail', async (t) => {
  const errors = [];
  const { client } = await startClient(t, { onError: (e) => errors.push(e) });
  // Only calls that cannot finish before the kill: a quick one (quotes/list)
  // may be answered first and then rightly resolve.
  const calls = [client.daemonSleep({ ms: 30_000 }), client.daemonSleep({ ms: 20_000 }), client.daemonSleep({ ms: 10_000 })];
  await client.daemonEcho(['sent']);
  const started = Date.now();
  process.kill(client.pid, 'SIGKILL');
  const failures = await Promise.all(calls.map(rejection));
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 1000, `pending calls failed after ${elapsed} ms`);
  for (const error of failures) {
    assert.ok(error instanceof DaemonExitedError, String(error));
    assert.equal(error.signal, 'SIGKILL');
    assert.equal(error.exitCode, null);
    assert.match(error.stderrTail, /catalogd started/);
  }
  assert.equal(failures[0].method, 'daemon/sleep');
  assert.match(failures[0].message, /^catalogd was killed by SIGKILL while daemon\/sleep was pending; the end of its stderr:\n {2}time=/);
  assert.deepEqual(client.exitStatus, { exitCode: null, signal: 'SIGKILL' });

  // Later calls fail at once too, and close() still resolves.
  const later = await rejection(client.quotesRandom());
  assert.ok(later instanceof DaemonExitedError);
  assert.equal(later.method, 'quotes/random');
  assert.throws(() => client.notify('initialized'), DaemonExitedError);
  assert.deepEqual(await client.close(), { exitCode: null, signal: 'SIGKILL' });
  assert.ok((await rejection(client.quotesRandom())) instanceof ClientClosedError);
  assert.deepEqual(errors, []);
});

test('daemon exiting on its own (exit without shutdown): status 1, pending calls fail', async (t) => {
  const { client } = await startClient(t);
  const call = client.daemonSleep({ ms: 30_000 });
  client.notify('exit');
  const error = await rejection(call);
  assert.ok(error instanceof DaemonExitedError, String(error));
  assert.equal(error.exitCode, 1);
  assert.equal(error.signal, null);
  assert.match(error.message, /^catalogd exited with status 1 while daemon\/sleep was pending/);
  assert.deepEqual(await client.exited, { exitCode: 1, signal: null });
});

test('close() while calls are pending: they are cancelled, close resolves', async (t) => {
  const { client } = await startClient(t);
  const failed = rejection(client.daemonSleep({ ms: 30_000 }, { timeout: 0 }));
  const started = Date.now();
  const status = await client.close({ timeout: 3000 });
  assert.deepEqual(status, { exitCode: 0, signal: null });
  assert.ok(Date.now() - started < 2000, 'close waits for no pending call');
  const error = await failed;
  assert.ok(error instanceof RequestCancelled, String(error));
});

test('close() kills a daemon that does not exit in time', async (t) => {
  const { client } = await startClient(t);
  process.kill(client.pid, 'SIGSTOP');
  t.after(() => {
    try {
      process.kill(client.pid, 'SIGCONT');
    } catch {
      // gone
    }
  });
  const started = Date.now();
  const status = await client.close({ timeout: 300 });
  assert.equal(status.signal, 'SIGKILL');
  assert.ok(Date.now() - started < 2000);
});
