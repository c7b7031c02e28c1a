// The README's code runs as written: each ```js block is a whole program,
// run by itself against the real daemon in a fresh HOME (as a reader who
// pasted it into a project that installed catalogd would run it), and it
// prints what its `// prints:` comments say. Its links are absolute and lead
// somewhere. (The ```ts blocks are type-checked by types.test.js.)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { PACKAGE_DIR, REPO_ROOT, binaryPath, projectDir, readmeBlocks } from '../test-support/helpers.js';

const README = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
const REPO_URL = 'https://github.com/catalogd/catalogd/blob/main/';
const SNIPPET_TIMEOUT_MS = 60_000;

/**
 * What a `// prints: TEXT` comment allows: a whole line of stdout, `…`
 * standing for any text.
 */
function expectedLines(code) {
  return [...code.matchAll(/\/\/ prints: (.*)$/gm)].map(([, text]) => {
    const pattern = text
      .trimEnd()
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return { text, pattern: new RegExp(`^${pattern}$`) };
  });
}

/**
 * The environment of a reader's shell, less what would make the run depend on
 * this machine: HOME and the XDG folders in `dir`, English messages, none of
 * the CATALOGD_* settings but the binary, and not the test runner's
 * NODE_TEST_CONTEXT (a snippet that runs tests would report to this runner).
 */
function readerEnvironment(dir) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name === 'NODE_TEST_CONTEXT' || name.startsWith('CATALOGD_') || name.startsWith('XDG_') || name.startsWith('LC_')) continue;
    env[name] = value;
  }
  const home = join(dir, 'home');
  mkdirSync(home);
  return { ...env, HOME: home, LANG: 'C.UTF-8', CATALOGD_BIN: binaryPath() };
}

/** Runs `file` with node in `cwd`; resolves with {code, signal, stdout, stderr}. */
function runSnippet(cwd, file, env) {
  const child = spawn(process.execPath, [file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), SNIPPET_TIMEOUT_MS);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

const blocks = readmeBlocks(['js', 'javascript']);

test('the README has runnable blocks, most of them saying what they print', () => {
  assert.ok(blocks.length >= 8, `${blocks.length} blocks`);
  assert.ok(blocks.filter((b) => expectedLines(b.code).length > 0).length >= 7);
});

for (const block of blocks) {
  const first = block.code.split('\n')[0];
  // A first line `// name.cjs` (or .mjs) names the file, e.g. to run it as CommonJS.
  const file = /^\/\/ (\S+\.[cm]js)\b/.exec(first)?.[1] ?? 'snippet.mjs';
  test(`README line ${block.line} runs as written (${first.slice(0, 60)})`, async (t) => {
    const dir = projectDir(t);
    // For the block that imports by path from the root of a checkout.
    mkdirSync(join(dir, 'clients'));
    symlinkSync(PACKAGE_DIR, join(dir, 'clients', 'node'), 'dir');
    writeFileSync(join(dir, file), block.code);

    const { code, signal, stdout, stderr } = await runSnippet(dir, file, readerEnvironment(dir));
    const report = `README line ${block.line}, exit ${code ?? signal}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
    assert.equal(code, 0, report);
    assert.equal(stderr, '', report);

    const expected = expectedLines(block.code);
    if (expected.length === 0) return;
    const lines = stdout.replace(/\n$/, '').split('\n');
    assert.equal(lines.length, expected.length, `every line printed is in a // prints: comment\n${report}`);
    lines.forEach((line, i) => assert.match(line, expected[i].pattern, `// prints: ${expected[i].text}\n${report}`));
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

test('every README link is absolute and leads to a file of the repository or a heading', () => {
  const prose = README.replace(/^```[\s\S]*?^```\s*$/gm, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target);
  assert.ok(links.length >= 5);
  const anchors = new Set([...README.matchAll(/^#+ (.+)$/gm)].map(([, heading]) => slug(heading)));
  for (const link of links) {
    assert.match(link, /^https:\/\//, `${link} is not absolute`);
    if (!link.startsWith(REPO_URL)) continue;
    const [path, anchor] = link.slice(REPO_URL.length).split('#');
    assert.ok(existsSync(join(REPO_ROOT, path)), `${link}: no ${path} in the repository`);
    if (anchor !== undefined && path === 'clients/node/README.md') assert.ok(anchors.has(anchor), `${link}: no such heading`);
  }
});
