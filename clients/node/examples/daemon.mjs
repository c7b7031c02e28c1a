// What the examples share: which catalogd to run.

import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `$CATALOGD_BIN`, else `catalogd` on PATH, else the build of the checkout the
 * examples are in (`.build/debug`, then `.build/release`), so that
 * `node clients/node/examples/tour.mjs` works right after `swift build`.
 * Falls back to `catalogd`: the client then says it is missing.
 */
export function daemonBinary() {
  if (process.env.CATALOGD_BIN) return process.env.CATALOGD_BIN;
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'catalogd'));
  const built = ['debug', 'release'].map((build) => join(REPO_ROOT, '.build', build, 'catalogd'));
  return [...onPath, ...built].find(executable) ?? 'catalogd';
}
