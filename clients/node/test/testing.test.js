// catalogd/testing: a daemon per test on a fresh folder, closed with the test,
// its stderr in the report when the test fails.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { STDERR_LINES, startClient, tempDir } from 'catalogd/testing';

import { binaryPath, projectDir } from '../test-support/helpers.js';

test('startClient: a daemon on a fresh data dir, closed and removed when the test ends', async (t) => {
  let client;
  let dataDir;
  await t.test('a test of yours', async (t) => {
    client = await startClient(t, { binary: binaryPath() });
    dataDir = (await client.daemonStatus()).dataDir;
    assert.ok(realpathSync(dataDir).startsWith(realpathSync(tmpdir())), dataDir);
    assert.ok(existsSync(dataDir));
    await client.productsCreate({ nameKo: '테스트 상품', price: 1000 });
  });
  assert.deepEqual(client.exitStatus, { exitCode: 0, signal: null }, 'closed when the test ended');
  assert.equal(existsSync(dataDir), false, 'its folder is gone');
});

test('startClient: HOME, XDG folders and CATALOGD_* settings of this process do not reach the daemon', async (t) => {
  process.env.CATALOGD_QUOTES_URL = 'http://127.0.0.1:1';
  t.after(() => delete process.env.CATALOGD_QUOTES_URL);
  // Without CATALOGD_DATA_DIR the daemon keeps its data under $XDG_DATA_HOME: the test's, not yours.
  const client = await startClient(t, { binary: binaryPath(), env: { CATALOGD_DATA_DIR: null } });
  const status = await client.daemonStatus();
  assert.ok(realpathSync(status.dataDir).startsWith(realpathSync(tmpdir())), status.dataDir);
  assert.match(status.dataDir, /\/home\/\.local\/share\/catalogd$/);
  assert.equal(status.backends.quotes, 'embedded', 'CATALOGD_QUOTES_URL stayed here');
  // English messages whatever the machine's language.
  await assert.rejects(client.quotesList({ limit: 0 }), { message: /limit/ });
});

test('startClient: options.env is laid on top, and the data dir can be shared', async (t) => {
  const first = await startClient(t, { binary: binaryPath() });
  const { dataDir } = await first.daemonStatus();
  const second = await startClient(t, { binary: binaryPath(), env: { CATALOGD_DATA_DIR: dataDir } });
  assert.equal((await second.daemonStatus()).dataDir, dataDir);
  const created = await first.productsCreate({ nameKo: '공유 상품', price: 500 });
  assert.equal((await second.productsGet({ id: created.id })).id, created.id);
});

test('tempDir: a folder removed when the test ends', async (t) => {
  let dir;
  await t.test('inner', (t) => {
    dir = tempDir(t);
    writeFileSync(join(dir, 'file'), 'x');
  });
  assert.equal(existsSync(dir), false);
});

/** Runs `node --test file` in `cwd`; resolves with {code, output}. */
function runTests(cwd, file) {
  // NODE_TEST_CONTEXT, which the test runner gives this process, would make
  // the child report to it instead of running its own tests.
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', file], {
    cwd,
    env: { ...env, CATALOGD_BIN: binaryPath() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

test('a failing test shows the end of its daemon stderr; a passing one shows nothing', async (t) => {
  const dir = projectDir(t);
  writeFileSync(
    join(dir, 'app.test.mjs'),
    `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startClient } from 'catalogd/testing';

test('fails', async (t) => {
  const client = await startClient(t, { args: ['--log-level', 'debug'] });
  await client.quotesRandom();
  assert.equal(1, 2);
});

test('passes', async (t) => {
  const client = await startClient(t, { args: ['--log-level', 'debug'] });
  await client.quotesRandom();
});
`,
  );
  const { code, output } = await runTests(dir, 'app.test.mjs');
  assert.equal(code, 1, output);
  const failed = output.slice(output.indexOf('not ok 1 - fails'), output.indexOf('# Subtest: passes'));
  assert.match(failed, new RegExp(`^# catalogd stderr \\(pid \\d+, exit status 0\\), last ${STDERR_LINES} lines:$`, 'm'), output);
  assert.match(failed, /^# {3}time=\S+ level=\S+ .*msg="?catalogd started/m, 'the daemon log lines, one diagnostic each');
  assert.match(failed, /^# {3}time=\S+ level=debug msg=initialized .*client\.name=catalogd-node/m, 'the debug lines asked for');
  const passed = output.slice(output.indexOf('# Subtest: passes'));
  assert.match(passed, /^ok 2 - passes$/m);
  assert.doesNotMatch(passed, /catalogd stderr/);
});
