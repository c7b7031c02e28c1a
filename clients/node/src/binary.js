// Which catalogd executable the client runs. Both clients look in the same
// four places, in the same order (the agreement of issue #15):
//
//   1. the `binary` option
//   2. $CATALOGD_BIN (an empty value counts as unset)
//   3. the daemon bundled in this package: <package root>/bin/catalogd, which
//      the npm package that scripts/dist builds carries (a checkout has none)
//   4. `catalogd` on PATH
//
// The first two are taken as given (a missing file is then an error naming
// it); the last two are looked up, and when neither exists the error names
// all four places, so that whoever reads it knows every way to fix it.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DaemonStartError, UsageError } from './errors.js';

/** Where the npm package carries its daemon (scripts/dist puts it there). */
export const BUNDLED_BINARY = fileURLToPath(new URL('../bin/catalogd', import.meta.url));

/** The four places, in the order they are tried, for error messages. */
export const LOOKUP_ORDER = [
  'the `binary` option',
  '$CATALOGD_BIN',
  `the daemon bundled with this package (${BUNDLED_BINARY})`,
  '`catalogd` on PATH',
];

/**
 * The executable to run and where it came from.
 * @param {string | undefined} explicit the `binary` option
 * @param {NodeJS.ProcessEnv} [env] where $CATALOGD_BIN and PATH are read
 * @returns {{binary: string, from: string}}
 * @throws {DaemonStartError} when no place has one
 */
export function findBinary(explicit, env = process.env) {
  if (explicit !== undefined) {
    if (typeof explicit !== 'string' || explicit === '') throw new UsageError('binary must be a non-empty string');
    return { binary: explicit, from: LOOKUP_ORDER[0] };
  }
  if (env.CATALOGD_BIN) return { binary: env.CATALOGD_BIN, from: LOOKUP_ORDER[1] };
  if (isExecutableFile(BUNDLED_BINARY)) return { binary: BUNDLED_BINARY, from: LOOKUP_ORDER[2] };
  const onPath = searchPath('catalogd', env.PATH);
  if (onPath) return { binary: onPath, from: LOOKUP_ORDER[3] };
  throw new DaemonStartError(
    `catalogd not found. The client looked, in order, at: ${LOOKUP_ORDER.join('; ')}. ` +
      'Pass {binary} to Client.start, set CATALOGD_BIN, or install catalogd on PATH.',
    { binary: null },
  );
}

/** The message of a binary that was chosen but cannot be run. */
export function notRunnableMessage(binary, from, error) {
  const why = error.code === 'ENOENT' ? 'not found' : `could not be started (${error.code ?? error.message})`;
  return `catalogd ${why}: ${binary} (from ${from}). The client looks, in order, at: ${LOOKUP_ORDER.join('; ')}.`;
}

/** The first `name` in the directories of `path` that is an executable file, or null. */
function searchPath(name, path = '') {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
