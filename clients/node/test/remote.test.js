// `remote`: sessions of one shared daemon (`--remote`), started on first use.

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client, UsageError } from '../src/index.js';
import { binaryPath, tempDir } from '../test-support/helpers.js';

test('two clients with remote: auto share one daemon', async (t) => {
  const base = tempDir(t);
  const runtime = join(base, 'runtime');
  mkdirSync(runtime, { mode: 0o700 });
  const options = {
    binary: binaryPath(),
    args: ['--data-dir', join(base, 'data'), '--idle-timeout', '2'],
    env: { HOME: base, XDG_RUNTIME_DIR: runtime, CATALOGD_DATA_DIR: undefined },
    remote: 'auto',
  };
  const a = await Client.start(options);
  const b = await Client.start(options);
  t.after(() => Promise.all([a.close(), b.close()]));
  const seen = new Promise((resolve) => b.on('products/listUpdated', resolve));
  const made = await a.productsCreate({ nameKo: '공유', price: 10 });
  assert.equal((await seen).id, made.id);
  const { sessions } = await a.request('daemon/sessions');
  assert.equal(sessions.length, 2);
  assert.equal(readdirSync(join(runtime, 'catalogd')).filter((name) => name.endsWith('.sock')).length, 1);
});

test('remote must be a non-empty string', async () => {
  await assert.rejects(Client.start({ binary: binaryPath(), remote: '' }), UsageError);
});
