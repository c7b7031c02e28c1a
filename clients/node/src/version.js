// The version of this package, which is the version of the daemon it was
// made for: scripts/dist refuses to pack a client whose version differs from
// the daemon's `catalogd --version`, and a test checks it.

import { createRequire } from 'node:module';

/** This package's version (package.json), e.g. `'0.1.0'`. */
export const VERSION = createRequire(import.meta.url)('../package.json').version;
