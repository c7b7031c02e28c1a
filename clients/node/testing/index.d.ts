// Types of catalogd/testing, the helper for node:test integration tests.

import type { Client, StartOptions } from '../src/index.js';

/**
 * What the helper uses of a `node:test` test context (`TestContext` is one;
 * typed structurally so that these types do not need `@types/node`).
 */
export interface TestContextLike {
  after(fn: () => unknown): void;
  diagnostic(message: string): void;
  /** False once the test failed (Node 20.12 and later). */
  readonly passed?: boolean;
}

/** How many lines of the daemon's stderr a failed test shows. */
export const STDERR_LINES: number;

/**
 * `Client.start(options)` on a fresh temporary data dir, with HOME and the
 * XDG folders inside it, English messages and none of this process's
 * `CATALOGD_*` settings (`options.env` adds or removes variables on top).
 * Closed when the test ends; when the test failed, the end of the daemon's
 * stderr is attached to the report (`t.diagnostic`).
 */
export function startClient(t: TestContextLike, options?: StartOptions): Promise<Client>;

/** A temporary folder, removed when the test ends. */
export function tempDir(t: TestContextLike, prefix?: string): string;
