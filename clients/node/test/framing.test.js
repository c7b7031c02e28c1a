// Both framings, end to end and byte by byte.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LspDecoder, NdjsonDecoder, encodeMessage } from '../src/framing.js';
import { startClient } from '../test-support/helpers.js';

for (const framing of ['ndjson', 'lsp']) {
  for (const detect of [false, true]) {
    const how = detect ? 'detected by the daemon' : 'forced with --framing';
    test(`${framing} framing, ${how}: requests, notifications, errors, big messages`, async (t) => {
      const args = detect ? ['--framing', 'auto'] : [];
      const { client, trace } = await startClient(t, { framing, args });
      assert.equal(client.framing, framing);
      const loading = [];
      client.on('quotes/loading', (p) => loading.push(p.isLoading));
      const quote = await client.quotesRandom({ tags: ['wisdom'] });
      assert.equal(typeof quote.content, 'string');
      assert.deepEqual(loading, [true, false]);
      await assert.rejects(client.quotesList({ limit: 0 }), { name: 'InvalidParams', code: -32602 });
      const big = { text: 'é😀'.repeat(200_000), n: 1 }; // ~1.2 MB, multi-byte characters across chunks
      assert.deepEqual(await client.daemonEcho(big), big);
      const many = await Promise.all(Array.from({ length: 200 }, (_, i) => client.daemonEcho([i, 'ü'])));
      assert.deepEqual(many.map((r) => r[0]), Array.from({ length: 200 }, (_, i) => i));
      assert.equal((await client.close()).exitCode, 0);
      const parseErrors = trace().filter((e) => e.dir === '->' && e.message?.error?.code === -32700);
      assert.deepEqual(parseErrors, [], 'the daemon understood every message');
    });
  }
}

/** Feeds `bytes` to the decoder in pieces of `size` bytes; returns all bodies and errors. */
function feed(decoder, bytes, size) {
  const bodies = [];
  const errors = [];
  for (let at = 0; at < bytes.length; at += size) {
    const out = decoder.push(bytes.subarray(at, at + size));
    bodies.push(...out.bodies);
    errors.push(...out.errors);
  }
  return { bodies, errors };
}

const BODIES = ['{"jsonrpc":"2.0","id":1,"result":"a"}', '{"jsonrpc":"2.0","method":"x","params":{"t":"한국어 😀"}}', '[]'];

test('encodeMessage: NDJSON lines and LSP Content-Length in bytes', () => {
  assert.equal(encodeMessage('ndjson', '{"a":"é"}').toString(), '{"a":"é"}\n');
  assert.equal(encodeMessage('lsp', '{"a":"é"}').toString(), 'Content-Length: 10\r\n\r\n{"a":"é"}');
});

test('the decoders give back every body, whatever the chunk size', () => {
  for (const [framing, Decoder] of [
    ['ndjson', NdjsonDecoder],
    ['lsp', LspDecoder],
  ]) {
    const bytes = Buffer.concat(BODIES.map((b) => encodeMessage(framing, b)));
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const decoder = new Decoder();
      assert.deepEqual(feed(decoder, bytes, size), { bodies: BODIES, errors: [] }, `${framing}, chunks of ${size}`);
      assert.equal(decoder.rest(), '');
    }
  }
});

test('NDJSON: CRLF line ends and blank lines are accepted; a partial line waits', () => {
  const decoder = new NdjsonDecoder();
  const out = decoder.push(Buffer.from('\n{"a":1}\r\n\r\n  \n{"b":'));
  assert.deepEqual(out.bodies, ['{"a":1}']);
  assert.equal(decoder.rest(), '{"b":');
  assert.deepEqual(decoder.push(Buffer.from('2}\n')).bodies, ['{"b":2}']);
});

test('LSP: header names are case-insensitive and other headers are ignored', () => {
  const decoder = new LspDecoder();
  const text = 'content-length: 7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"a":1}';
  assert.deepEqual(decoder.push(Buffer.from(text)), { bodies: ['{"a":1}'], errors: [] });
});

test('LSP: a header block without a valid Content-Length is reported and skipped', () => {
  const decoder = new LspDecoder();
  const out = decoder.push(Buffer.from('Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}'));
  assert.equal(out.errors.length, 1);
  assert.match(out.errors[0], /without a valid Content-Length/);
  assert.deepEqual(out.bodies, ['{}']);
  const bad = new LspDecoder().push(Buffer.from('Content-Length: -1\r\n\r\n'));
  assert.equal(bad.errors.length, 1);
});

test('LSP: an endless header block is reported instead of buffered forever', () => {
  const decoder = new LspDecoder();
  const out = decoder.push(Buffer.alloc(10_000, 0x41));
  assert.equal(out.errors.length, 1);
  assert.equal(decoder.rest(), '');
});
