/**
 * The version of isvc-doctor, from its package.json: the nearest one named isvc-doctor above this
 * module (in the repository, an installed package or the image, however the code was compiled or
 * bundled). Read once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= findVersion(path.dirname(fileURLToPath(import.meta.url)));
  return cached;
}

function findVersion(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'isvc-doctor' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here (or not JSON): look further up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
