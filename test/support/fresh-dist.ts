/**
 * The playground runs the bot from dist/ (as production runs it): tests that start it make sure
 * dist/ is not older than the sources, transpiling with scripts/fast-build.mjs when it is.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestSource(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return Math.max(newest, newestSource(full));
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? Math.max(newest, statSync(full).mtimeMs) : newest;
  }, 0);
}

export async function ensureFreshDist(): Promise<void> {
  const entry = 'dist/src/cli/isvc-doctor.js';
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const newest = Math.max(...['src', 'playbooks', 'handlers'].map(newestSource));
  if (newest <= built) return;
  // @ts-expect-error: a plain JavaScript build script without type declarations
  const { fastBuild } = (await import('../../scripts/fast-build.mjs')) as { fastBuild(): Promise<number> };
  await fastBuild();
}
