// The npm package: what package.json says, what `npm pack` puts in, and that
// the packed tarball installs (offline: it has no dependencies) and works
// from a user's project, as ESM and from CommonJS.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { PACKAGE_DIR, binaryPath, tempDir } from '../test-support/helpers.js';

const run = promisify(execFile);
const MANIFEST = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
const npmMissing = spawnSync('npm', ['--version']).status !== 0 && 'npm is not installed';
// Locally a missing npm skips these tests; in CI it fails them.
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false';
const skip = npmMissing && !inCI ? npmMissing : false;

/** npm in `cwd`, offline, quiet, with a cache of the test's own; resolves with its stdout. */
async function npm(t, cwd, args) {
  assert.ok(!npmMissing, npmMissing);
  const { stdout } = await run('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    timeout: 120_000,
    env: { ...process.env, npm_config_cache: tempDir(t), npm_config_update_notifier: 'false' },
  });
  return stdout;
}

test('package.json: where it comes from, what it needs, what it exports', () => {
  assert.equal(MANIFEST.name, 'catalogd');
  assert.equal(MANIFEST.author, 'catalogd contributors');
  assert.equal(MANIFEST.license, 'MIT');
  assert.deepEqual(MANIFEST.repository, {
    type: 'git',
    url: 'git+https://github.com/catalogd/catalogd.git',
    directory: 'clients/node',
  });
  assert.match(MANIFEST.homepage, /^https:\/\/github\.com\/catalogd\/catalogd\b/);
  assert.equal(MANIFEST.bugs.url, 'https://github.com/catalogd/catalogd/issues');
  assert.equal(MANIFEST.engines.node, '>=20');
  assert.equal(MANIFEST.type, 'module');
  for (const [subpath, dir] of [['.', 'src'], ['./testing', 'testing']]) {
    const conditions = MANIFEST.exports[subpath];
    assert.deepEqual(Object.keys(conditions), ['types', 'import', 'default'], `${subpath}: types first, as TypeScript needs`);
    assert.equal(conditions.types, `./${dir}/index.d.ts`);
    assert.equal(conditions.import, `./${dir}/index.js`);
  }
  // scripts/dist adds these to the staged copy, together with the daemon.
  for (const field of ['bin', 'os', 'cpu']) assert.equal(field in MANIFEST, false, `no ${field} here`);
  assert.equal(readFileSync(join(PACKAGE_DIR, 'LICENSE'), 'utf8'), readFileSync(join(PACKAGE_DIR, '..', '..', 'LICENSE'), 'utf8'));
});

test('npm pack takes the code, its types, the testing helper, the examples, README and LICENSE, and no tests', { skip }, async (t) => {
  const [packed] = JSON.parse(await npm(t, PACKAGE_DIR, ['pack', '--dry-run', '--json', '--pack-destination', tempDir(t)]));
  const files = packed.files.map((f) => f.path).sort();
  for (const needed of [
    'LICENSE',
    'README.md',
    'package.json',
    'src/index.js',
    'src/index.d.ts',
    'src/types.generated.d.ts',
    'src/methods.generated.js',
    'src/binary.js',
    'src/version.js',
    'testing/index.js',
    'testing/index.d.ts',
    'examples/tour.mjs',
    'examples/pager.mjs',
    'examples/daemon.mjs',
  ]) {
    assert.ok(files.includes(needed), `${needed} is packed: ${files.join(', ')}`);
  }
  assert.deepEqual(files.filter((f) => /^(test|test-support|scripts)\//.test(f)), []);
});

test('the packed package installs and works in a project: ESM, catalogd/testing, CommonJS, the examples', { skip }, async (t) => {
  const work = tempDir(t);
  const [packed] = JSON.parse(await npm(t, PACKAGE_DIR, ['pack', '--json', '--pack-destination', work]));
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true }));
  await npm(t, project, ['install', join(work, packed.filename)]);

  writeFileSync(
    join(project, 'esm.mjs'),
    `import { Client, VERSION, BUNDLED_BINARY } from 'catalogd';
import { startClient } from 'catalogd/testing';
const client = await Client.start({ env: { CATALOGD_DATA_DIR: process.argv[2] } });
console.log(JSON.stringify({
  echo: await client.daemonEcho(['installed']),
  version: VERSION,
  bundled: BUNDLED_BINARY,
  testing: typeof startClient,
  exit: await client.close(),
}));
`,
  );
  const env = { ...process.env, CATALOGD_BIN: binaryPath() };
  delete env.NODE_TEST_CONTEXT;
  const esm = JSON.parse((await run(process.execPath, ['esm.mjs', join(work, 'data')], { cwd: project, env })).stdout);
  assert.deepEqual(esm.echo, ['installed']);
  assert.equal(esm.version, MANIFEST.version);
  assert.equal(esm.bundled, join(project, 'node_modules', 'catalogd', 'bin', 'catalogd'));
  assert.equal(esm.testing, 'function');
  assert.deepEqual(esm.exit, { exitCode: 0, signal: null });

  // CommonJS: import() on every Node 20; require() where Node can require ES
  // modules (20.19 and later), else ERR_REQUIRE_ESM, as the README says.
  writeFileSync(
    join(project, 'cjs.cjs'),
    `let required;
try {
  required = typeof require('catalogd').Client;
} catch (error) {
  required = error.code;
}
import('catalogd').then(({ Client }) => console.log(JSON.stringify({ imported: typeof Client, required })));
`,
  );
  const cjs = JSON.parse((await run(process.execPath, ['cjs.cjs'], { cwd: project, env })).stdout);
  assert.equal(cjs.imported, 'function');
  assert.equal(cjs.required, process.features.require_module ? 'function' : 'ERR_REQUIRE_ESM');

  // The examples it carries run from node_modules.
  const tour = await run(process.execPath, [join(project, 'node_modules', 'catalogd', 'examples', 'tour.mjs')], { cwd: project, env });
  assert.match(tour.stdout, /^connected to catalogd \d/);
  assert.doesNotMatch(tour.stdout, /failed:/);
});
