// What the examples share: which catalogd to run.

import { accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { findBinary } from 'catalogd';

/** The checkout the examples are in, when they are in one (not in an installed package). */
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
 * The daemon the client finds by itself (`$CATALOGD_BIN`, the one bundled in
 * the installed package, `catalogd` on PATH), else the build of the checkout
 * the examples are in (`.build/debug`, then `.build/release`), so that
 * `node clients/node/examples/tour.mjs` works right after `swift build`.
 * Else undefined: the client then says where it looked.
 * @returns {string | undefined}
 */
export function daemonBinary() {
  try {
    return findBinary(undefined).binary;
  } catch {
    // None of the client's places has one: try the checkout's build.
  }
  return ['debug', 'release'].map((build) => join(REPO_ROOT, '.build', build, 'catalogd')).find(executable);
}
