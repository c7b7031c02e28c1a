// Start, the initialize/initialized handshake, and close.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client, ClientClosedError, DaemonExitedError, VERSION } from '../src/index.js';
import { binaryPath, readTrace, rejection, startClient, tempDir } from '../test-support/helpers.js';

const PACKAGE_VERSION = JSON.parse(
  await (await import('node:fs/promises')).readFile(new URL('../package.json', import.meta.url), 'utf8'),
).version;

test('start does initialize with clientInfo catalogd-node, then initialized', async (t) => {
  const { client, trace } = await startClient(t);
  assert.equal(client.serverInfo.name, 'catalogd');
  assert.match(client.serverInfo.version, /^\d+\.\d+\.\d+/);
  assert.match(client.clientId, /^[0-9a-f-]{36}$/i);
  assert.ok(client.capabilities.services.quotes, 'quotes is announced');
  assert.deepEqual(client.initializeResult.serverInfo, client.serverInfo);
  assert.equal(client.framing, 'ndjson');
  assert.equal(typeof client.pid, 'number');

  await client.daemonEcho(['sync']); // the trace has everything sent before this reply
  const sent = trace().filter((e) => e.dir === '<-').map((e) => e.message);
  assert.equal(sent[0].method, 'initialize');
  assert.deepEqual(sent[0].params, { clientInfo: { name: 'catalogd-node', version: PACKAGE_VERSION } });
  assert.equal(sent[1].method, 'initialized');
  assert.equal('id' in sent[1], false, 'initialized is a notification');
});

test('clientId and clientInfo options reach initialize', async (t) => {
  const clientId = '3f2c8a4e-1b6d-4c9a-8e7f-0a1b2c3d4e5f';
  const { client, trace } = await startClient(t, { clientId, clientInfo: { name: 'my-tool', version: '9' } });
  assert.equal(client.clientId, clientId);
  const init = trace().find((e) => e.message?.method === 'initialize').message;
  assert.deepEqual(init.params, { clientInfo: { name: 'my-tool', version: '9' }, clientId });
});

test('locale picks the language of error messages', async (t) => {
  const { client, trace } = await startClient(t, { locale: 'ko' });
  const init = trace().find((e) => e.message?.method === 'initialize').message;
  assert.equal(init.params.locale, 'ko');
  const error = await rejection(client.request('quotes/list', { tag: 'wisdom' }));
  assert.equal(error.code, -32602);
  assert.equal(error.message, '알 수 없는 매개변수 tag입니다. tags을(를) 쓰려던 것인가요?');
  assert.equal(error.data.suggestion, 'tags');
});

test('close sends shutdown and exit, and the daemon exits 0', async (t) => {
  const { client, trace } = await startClient(t);
  const status = await client.close();
  assert.deepEqual(status, { exitCode: 0, signal: null });
  assert.deepEqual(client.exitStatus, status);
  assert.deepEqual(await client.exited, status);
  const sent = trace().filter((e) => e.dir === '<-').map((e) => e.message.method);
  assert.deepEqual(sent.slice(-2), ['shutdown', 'exit']);
  // Idempotent, and calls after close are refused with a clear error.
  assert.deepEqual(await client.close(), status);
  assert.equal(await client.close(), status, 'the same status object, every time');
  const error = await rejection(client.quotesRandom());
  assert.ok(error instanceof ClientClosedError, String(error));
  assert.match(error.message, /closed.*quotes\/random/);
  assert.throws(() => client.notify('initialized'), ClientClosedError);
});

test('Symbol.asyncDispose closes the client', async (t) => {
  const { client } = await startClient(t);
  assert.equal(typeof client[Symbol.asyncDispose], 'function');
  await client[Symbol.asyncDispose]();
  assert.deepEqual(client.exitStatus, { exitCode: 0, signal: null });
});

test('the binary comes from CATALOGD_BIN when no binary option is given', async (t) => {
  const saved = process.env.CATALOGD_BIN;
  process.env.CATALOGD_BIN = binaryPath();
  t.after(() => {
    if (saved === undefined) delete process.env.CATALOGD_BIN;
    else process.env.CATALOGD_BIN = saved;
  });
  const dir = tempDir(t);
  const client = await Client.start({ env: { CATALOGD_DATA_DIR: dir } });
  t.after(() => client.close());
  assert.equal(client.binary, binaryPath());
  assert.equal((await client.daemonStatus()).dataDir, dir);
});

test('VERSION is the package version and the daemon version', async (t) => {
  assert.equal(VERSION, PACKAGE_VERSION);
  assert.match(VERSION, /^\d+\.\d+\.\d+$/);
  assert.equal(execFileSync(binaryPath(), ['--version'], { encoding: 'utf8' }).trim(), `catalogd ${VERSION}`);
  const { client } = await startClient(t);
  assert.equal(client.serverInfo.version, VERSION);
});

test('a daemon that exits during the handshake gives DaemonExitedError with its stderr', async (t) => {
  const dir = tempDir(t);
  const error = await rejection(
    Client.start({ binary: binaryPath(), args: ['--max-depth', 'deep'], env: { CATALOGD_DATA_DIR: join(dir, 'd') } }),
  );
  assert.ok(error instanceof DaemonExitedError, String(error));
  assert.equal(error.method, 'initialize');
  assert.notEqual(error.exitCode, 0);
  assert.match(error.stderrTail, /max-depth/, 'the daemon said why');
  assert.match(error.message, /catalogd exited with status \d+ while initialize was pending/);
});

test('stderr is kept, and can be streamed line by line', async (t) => {
  const lines = [];
  const { client } = await startClient(t, { stderr: (line) => lines.push(line), args: ['--log-level', 'debug'] });
  await client.quotesRandom();
  assert.match(client.stderr, /catalogd started/);
  assert.match(client.stderrTail(1), /\S/);
  await client.close();
  assert.ok(lines.some((line) => /catalogd started/.test(line)), lines.join('\n'));
  assert.ok(lines.every((line) => !line.includes('\n')));
});

test('options are checked', async () => {
  await assert.rejects(Client.start({ binary: binaryPath(), framing: 'xml' }), TypeError);
  await assert.rejects(Client.start({ binary: binaryPath(), timeout: -1 }), TypeError);
  await assert.rejects(Client.start({ binary: binaryPath(), stderr: 'loud' }), TypeError);
  assert.throws(() => new Client(), /Client\.start/);
});

