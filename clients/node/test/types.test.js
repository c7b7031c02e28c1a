// The TypeScript types: typical use (test/types/good.ts and the README's ```ts
// blocks) type-checks under --strict, and each misuse in test/types/bad.ts
// (a misspelt method or notification, a wrong option) is the type error it
// names. Needs `tsc` (Debian's node-typescript); skipped without it, except
// in CI (CI set), where a missing tsc fails.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { PACKAGE_DIR, projectDir, readmeBlocks } from '../test-support/helpers.js';

const run = promisify(execFile);
const FIXTURES = join(PACKAGE_DIR, 'test', 'types');
const TSC = process.env.TSC ?? 'tsc';
const tscVersion = spawnSync(TSC, ['--version'], { encoding: 'utf8' });
const missing = tscVersion.status !== 0 && `${TSC} is not installed (apt-get install node-typescript)`;
// Locally a missing tsc skips these tests; in CI it fails them.
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false';
const skip = missing && !inCI ? missing : false;

/**
 * A project in a temporary folder that installed catalogd, holding `files`
 * ({name: text}) and a strict tsconfig that checks them. Resolves with
 * tsc's diagnostics: [{file, line, code, message}].
 */
async function typeCheck(t, files) {
  assert.ok(!missing, missing);
  const dir = projectDir(t);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  copyFileSync(join(FIXTURES, 'node-shim.d.ts'), join(dir, 'node-shim.d.ts'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'node16',
      moduleResolution: 'node16',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
    },
    files: ['node-shim.d.ts', ...Object.keys(files)],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const { stdout } = await run(TSC, ['-p', dir, '--pretty', 'false'], { cwd: dir, timeout: 120_000 }).catch((error) => {
    if (typeof error.code !== 'number') throw error; // not tsc's "errors found" exit status
    return error;
  });
  return [...stdout.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map(([, file, line, code, message]) => ({
    file,
    line: Number(line),
    code,
    message,
  }));
}

const show = (diagnostics) => diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`).join('\n');

test('good usage and the README TypeScript blocks type-check under --strict', { skip }, async (t) => {
  const files = { 'good.ts': readFileSync(join(FIXTURES, 'good.ts'), 'utf8') };
  for (const block of readmeBlocks(['ts', 'typescript'])) files[`readme-${block.line}.ts`] = block.code;
  assert.ok(Object.keys(files).length > 1, 'the README has TypeScript blocks');
  const diagnostics = await typeCheck(t, files);
  assert.deepEqual(diagnostics, [], show(diagnostics));
});

test('each misuse in bad.ts is the type error it names', { skip }, async (t) => {
  const source = readFileSync(join(FIXTURES, 'bad.ts'), 'utf8');
  const expected = [];
  source.split('\n').forEach((text, index) => {
    const match = /\/\/ @ts-expect-error (TS\d+)/.exec(text);
    if (match) expected.push({ line: index + 2, code: match[1] }); // the directive is about the next line
  });
  assert.ok(expected.length >= 10, 'bad.ts names its errors');

  // With the directives: tsc fails on any directive whose line has no error.
  assert.deepEqual(await typeCheck(t, { 'bad.ts': source }), []);

  // Without them: exactly the errors named, on those lines.
  const bare = await typeCheck(t, { 'bad.ts': source.replaceAll('// @ts-expect-error', '// expect-error') });
  assert.deepEqual(
    bare.map(({ line, code }) => ({ line, code })),
    expected,
    show(bare),
  );
  const message = (line) => bare.find((d) => d.line === line).message;
  assert.match(message(expected[0].line), /"products\/listUpdatd".*keyof MethodMap/);
});
