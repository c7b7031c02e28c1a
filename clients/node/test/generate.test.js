// The generated files are in step with openrpc.json, and the check can fail.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { DEFAULT_OPENRPC, OUTPUTS, generate } from '../scripts/generate.mjs';
import { PACKAGE_DIR, tempDir } from '../test-support/helpers.js';

const run = promisify(execFile);
const SCRIPT = join(PACKAGE_DIR, 'scripts', 'generate.mjs');
const DOC = JSON.parse(readFileSync(DEFAULT_OPENRPC, 'utf8'));

test('the generated files are up to date (scripts/generate.mjs --check)', async () => {
  const { stdout, stderr } = await run(process.execPath, [SCRIPT, '--check']).catch((error) => error);
  assert.equal(stderr, '', `${stderr}${stdout}`);
  assert.equal(generate(DOC).js, readFileSync(OUTPUTS.js, 'utf8'));
  assert.equal(generate(DOC).dts, readFileSync(OUTPUTS.dts, 'utf8'));
});

test('--check fails, naming the files, when openrpc.json gained a method', async (t) => {
  const doc = structuredClone(DOC);
  doc.methods.push({
    // A name no real method will take.
    name: 'generatorTest/addedMethod',
    summary: 'A method the checked-in files do not have.',
    paramStructure: 'by-name',
    params: [{ name: 'category', schema: { type: 'string' }, required: true }],
    result: { name: 'AddedPage', schema: { type: 'object', properties: { items: { type: 'array' } } } },
  });
  const path = join(tempDir(t), 'openrpc.json');
  writeFileSync(path, JSON.stringify(doc));
  const error = await run(process.execPath, [SCRIPT, '--check', '--openrpc', path]).then(
    () => assert.fail('--check passed on a changed document'),
    (e) => e,
  );
  assert.equal(error.code, 1);
  assert.match(error.stderr, /out of date.*methods\.generated\.js.*types\.generated\.d\.ts/s);
  const out = generate(doc);
  assert.match(out.js, /generatorTestAddedMethod\(params, options\) \{\n {4}return this\.request\("generatorTest\/addedMethod", params, options\);/);
  assert.match(out.dts, /generatorTestAddedMethod\(params: GeneratorTestAddedMethodParams, options\?: RequestOptions\): Promise<GeneratorTestAddedMethodResult>;/);
  assert.match(out.dts, /export interface GeneratorTestAddedMethodParams \{\n {2}category: string;\n\}/);
});

test('types: schemas, optional and required params, notifications', () => {
  const { dts } = generate(DOC);
  assert.match(dts, /export interface Quote \{[^}]*\n {2}id: string;[^}]*\n {2}tags: string\[\];/s);
  assert.match(dts, /export type QuotesRandomResult = Quote;/);
  assert.match(dts, /export interface QuotePage \{[^}]*nextPage: number \| null;/s);
  assert.match(dts, /export interface DaemonSleepParams \{[^}]*\n {2}ms: number;[^}]*\n {2}lane\?: string;/s);
  assert.match(dts, /daemonSleep\(params: DaemonSleepParams,/, 'required params are not optional');
  assert.match(dts, /quotesRandom\(params\?: QuotesRandomParams,/);
  assert.match(dts, /export interface QuotesLoadingParams \{\n {2}isLoading: boolean;\n\}/);
  assert.match(dts, /export interface NotificationMap \{[^}]*"quotes\/loading": QuotesLoadingParams;/s);
  assert.match(dts, /"\$\/cancelRequest": CancelRequestParams;/);
});

test('the generator refuses names that clash', () => {
  const clash = structuredClone(DOC);
  clash.methods.push({ name: 'quotes.random', params: [], result: { name: 'x', schema: {} } });
  assert.throws(() => generate(clash), /both become quotesRandom/);
  const reserved = structuredClone(DOC);
  reserved.methods.push({ name: 'close', params: [], result: { name: 'x', schema: {} } });
  assert.throws(() => generate(reserved), /Client already has/);
});

test('a oneOf of titled objects is an interface per title and their union', () => {
  const doc = structuredClone(DOC);
  doc.components.schemas.GeneratorTestShape = {
    description: 'a shape',
    oneOf: [
      { type: 'object', title: 'GeneratorTestCircle', required: ['kind', 'r'], properties: { kind: { const: 'circle' }, r: { type: 'number' } } },
      { type: 'object', title: 'GeneratorTestSquare', required: ['kind', 'side'], properties: { kind: { const: 'square' }, side: { type: 'number' } } },
    ],
  };
  const { dts } = generate(doc);
  assert.match(dts, /\/\*\* A `GeneratorTestShape` with `kind: "circle"`\. \*\/\nexport interface GeneratorTestCircle \{\n {2}kind: "circle";\n {2}r: number;\n\}/);
  assert.match(dts, /\/\*\* a shape \*\/\nexport type GeneratorTestShape = GeneratorTestCircle \| GeneratorTestSquare;/);
  const clash = structuredClone(doc);
  clash.components.schemas.GeneratorTestCircle = { type: 'string' };
  assert.throws(() => generate(clash), /both want the type name GeneratorTestCircle/);
  // The live feeds' steps, discriminated on op.
  assert.match(generate(DOC).dts, /export type FeedItemChange = FeedInsert \| FeedRemove \| FeedUpdate;/);
});
