// Message framing: NDJSON (one JSON text per line) and the Language Server
// Protocol base protocol (`Content-Length: N\r\n\r\n<body>`).
//
// A decoder takes stdout chunks as they come and hands out message bodies as
// strings; it never parses JSON. It works on bytes, so a UTF-8 character split
// across two chunks is decoded whole, and it copies each byte at most twice,
// so a 16 MiB reply arriving in 64 KiB chunks costs linear time.

/** The framings the client speaks. */
export const FRAMINGS = Object.freeze(['ndjson', 'lsp']);

const NEWLINE = 0x0a;
const HEADER_END = Buffer.from('\r\n\r\n');
/** Longest header block accepted before the decoder gives up on the stream. */
const MAX_HEADER_BYTES = 8192;

/**
 * The bytes on the wire for one message body.
 * @param {'ndjson' | 'lsp'} framing
 * @param {string} body one JSON text (JSON.stringify never emits a raw newline)
 * @returns {Buffer}
 */
export function encodeMessage(framing, body) {
  if (framing === 'lsp') {
    const bytes = Buffer.from(body, 'utf8');
    return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
  }
  return Buffer.from(`${body}\n`, 'utf8');
}

/**
 * A decoder for the framing.
 * @param {'ndjson' | 'lsp'} framing
 * @returns {NdjsonDecoder | LspDecoder}
 */
export function createDecoder(framing) {
  return framing === 'lsp' ? new LspDecoder() : new NdjsonDecoder();
}

/**
 * One body per line; `\r\n` line ends and blank lines are accepted.
 */
export class NdjsonDecoder {
  /** Chunks of the line not yet ended. */
  #pending = [];

  /**
   * @param {Buffer} chunk
   * @returns {{bodies: string[], errors: string[]}}
   */
  push(chunk) {
    const bodies = [];
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      let line = chunk.subarray(start, at);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = Buffer.concat(this.#pending);
        this.#pending = [];
      }
      const text = line.toString('utf8').replace(/\r$/, '');
      if (text.trim() !== '') bodies.push(text);
      start = at + 1;
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return { bodies, errors: [] };
  }

  /** Bytes of an unfinished message at end of stream, as text (empty when none). */
  rest() {
    return Buffer.concat(this.#pending).toString('utf8');
  }
}

/**
 * `Content-Length` framing. Header names are case-insensitive; other headers
 * (`Content-Type`) are ignored. A header block without a valid
 * `Content-Length` is reported and skipped.
 */
export class LspDecoder {
  /** Received chunks not yet consumed. */
  #chunks = [];
  /** Total bytes in #chunks. */
  #length = 0;
  /** The body length once its headers are read; null while reading headers. */
  #bodyLength = null;

  /**
   * @param {Buffer} chunk
   * @returns {{bodies: string[], errors: string[]}}
   */
  push(chunk) {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    const bodies = [];
    const errors = [];
    for (;;) {
      if (this.#bodyLength === null) {
        const buffer = this.#flatten();
        const end = buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (buffer.length > MAX_HEADER_BYTES) {
            errors.push(`a header block longer than ${MAX_HEADER_BYTES} bytes: ${preview(buffer)}`);
            this.#take(buffer.length);
          }
          break;
        }
        const headerText = buffer.subarray(0, end).toString('latin1');
        this.#take(end + HEADER_END.length);
        const length = contentLength(headerText);
        if (length === null) {
          errors.push(`a header block without a valid Content-Length: ${JSON.stringify(headerText)}`);
          continue;
        }
        this.#bodyLength = length;
      }
      if (this.#length < this.#bodyLength) break;
      const body = this.#flatten().subarray(0, this.#bodyLength);
      bodies.push(body.toString('utf8'));
      this.#take(this.#bodyLength);
      this.#bodyLength = null;
    }
    return { bodies, errors };
  }

  /** Bytes of an unfinished message at end of stream, as text (empty when none). */
  rest() {
    return this.#flatten().toString('utf8');
  }

  /** All pending bytes as one buffer (and keeps them as one chunk). */
  #flatten() {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks, this.#length)];
    return this.#chunks[0];
  }

  /** Drops the first n pending bytes. */
  #take(n) {
    const buffer = this.#flatten().subarray(n);
    this.#chunks = buffer.length > 0 ? [buffer] : [];
    this.#length = buffer.length;
  }
}

/** The Content-Length of a header block, or null when it has none or a bad one. */
function contentLength(headerText) {
  let length = null;
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) return null;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,15}$/.test(value)) return null;
    length = Number(value);
  }
  return length;
}

/** @param {Buffer} buffer */
function preview(buffer) {
  return JSON.stringify(buffer.subarray(0, 80).toString('latin1'));
}
