// Which daemon the client runs: the binary option, $CATALOGD_BIN, the daemon
// bundled in the package (<package root>/bin/catalogd), catalogd on PATH; and
// the error that names all four when none has one.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { BUNDLED_BINARY, Client, DaemonStartError, findBinary } from '../src/index.js';
import { PACKAGE_DIR, binaryPath, rejection, tempDir } from '../test-support/helpers.js';

/**
 * A copy of the package (src/ and package.json) in a temporary folder, with
 * the daemon as bin/catalogd when `bundled`, as scripts/dist packs it.
 * Resolves with the copy's module.
 */
async function packageCopy(t, { bundled }) {
  const root = join(tempDir(t), 'catalogd');
  cpSync(join(PACKAGE_DIR, 'src'), join(root, 'src'), { recursive: true });
  cpSync(join(PACKAGE_DIR, 'package.json'), join(root, 'package.json'));
  if (bundled) {
    mkdirSync(join(root, 'bin'));
    symlinkSync(binaryPath(), join(root, 'bin', 'catalogd'));
  }
  return { root, module: await import(pathToFileURL(join(root, 'src', 'index.js')).href) };
}

/** A folder for PATH holding `catalogd` (the real daemon). */
function pathWithDaemon(t) {
  const dir = tempDir(t);
  symlinkSync(binaryPath(), join(dir, 'catalogd'));
  return dir;
}

/** Runs `body` with process.env changed by `changes` (undefined: removed), then puts it back. */
async function withEnv(changes, body) {
  const saved = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]));
  const apply = (values) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(changes);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

test('the bundled daemon is <package root>/bin/catalogd', () => {
  assert.equal(BUNDLED_BINARY, join(PACKAGE_DIR, 'bin', 'catalogd'));
});

test('the order: binary option, $CATALOGD_BIN, the bundled daemon, catalogd on PATH', async (t) => {
  const { root, module } = await packageCopy(t, { bundled: true });
  const bundled = join(root, 'bin', 'catalogd');
  const onPath = pathWithDaemon(t);
  const env = { CATALOGD_BIN: '/from/env/catalogd', PATH: onPath };

  assert.deepEqual(module.findBinary('/explicit/catalogd', env), { binary: '/explicit/catalogd', from: 'the `binary` option' });
  assert.deepEqual(module.findBinary(undefined, env), { binary: '/from/env/catalogd', from: '$CATALOGD_BIN' });
  assert.equal(module.findBinary(undefined, { ...env, CATALOGD_BIN: '' }).binary, bundled, 'an empty CATALOGD_BIN counts as unset');
  assert.equal(module.findBinary(undefined, { PATH: onPath }).binary, bundled, 'bundled before PATH');
  // Without a bundled daemon (a checkout), PATH.
  assert.deepEqual(findBinary(undefined, { PATH: `/nonexistent:${onPath}` }), { binary: join(onPath, 'catalogd'), from: '`catalogd` on PATH' });
});

test('Client.start runs the bundled daemon when there is no option and no $CATALOGD_BIN', async (t) => {
  const { root, module } = await packageCopy(t, { bundled: true });
  const client = await withEnv({ CATALOGD_BIN: undefined, PATH: '/nonexistent' }, () =>
    module.Client.start({ env: { CATALOGD_DATA_DIR: tempDir(t) } }),
  );
  t.after(() => client.close());
  assert.equal(client.binary, join(root, 'bin', 'catalogd'));
  assert.equal(client.serverInfo.name, 'catalogd');
});

test('Client.start runs catalogd from PATH last', async (t) => {
  const onPath = pathWithDaemon(t);
  const client = await withEnv({ CATALOGD_BIN: undefined, PATH: onPath }, () =>
    Client.start({ env: { CATALOGD_DATA_DIR: tempDir(t) } }),
  );
  t.after(() => client.close());
  assert.equal(client.binary, join(onPath, 'catalogd'));
});

test('nothing found: DaemonStartError naming all four places', async (t) => {
  const { root, module } = await packageCopy(t, { bundled: false });
  const error = await withEnv({ CATALOGD_BIN: undefined, PATH: tempDir(t) }, () => rejection(module.Client.start()));
  assert.ok(error instanceof module.DaemonStartError, String(error));
  assert.ok(error instanceof module.CatalogdError);
  assert.equal(error.binary, null);
  assert.match(error.message, /^catalogd not found\. The client looked, in order, at: /);
  for (const place of ['the `binary` option', '$CATALOGD_BIN', join(root, 'bin', 'catalogd'), '`catalogd` on PATH']) {
    assert.ok(error.message.includes(place), `${place} in: ${error.message}`);
  }
});

test('a given binary that is missing: DaemonStartError naming it, where it came from, and the four places', async () => {
  const error = await rejection(Client.start({ binary: '/nonexistent/catalogd' }));
  assert.ok(error instanceof DaemonStartError, String(error));
  assert.equal(error.binary, '/nonexistent/catalogd');
  assert.equal(error.cause.code, 'ENOENT');
  assert.match(error.message, /^catalogd not found: \/nonexistent\/catalogd \(from the `binary` option\)\. The client looks, in order, at: .*\$CATALOGD_BIN/);

  const fromEnv = await withEnv({ CATALOGD_BIN: '/nonexistent/env-catalogd' }, () => rejection(Client.start()));
  assert.ok(fromEnv instanceof DaemonStartError, String(fromEnv));
  assert.match(fromEnv.message, /not found: \/nonexistent\/env-catalogd \(from \$CATALOGD_BIN\)/);
});
