/** The `isvc-doctor` bin as package.json declares it (contract: `node <that bin's path>` runs it after a build). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file runs from dist/bench/. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function cliBin(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    bin?: Record<string, string> | string;
  };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['isvc-doctor'];
  if (!bin) throw new Error('package.json declares no isvc-doctor bin');
  return path.join(REPO_ROOT, bin);
}
