/** Builds dist/ (`npm run build`) when it is missing or older than the sources; CI builds before the tests. */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['src', 'handlers', 'playbooks', 'bench', 'test/support'];
const OUTPUTS = ['dist/src/app/serve.js', 'dist/bench/run.js'];

function newest(dir: string): number {
  return readdirSync(dir).reduce((m, name) => {
    const p = path.join(dir, name);
    const st = statSync(p);
    return Math.max(
      m,
      st.isDirectory() ? newest(p) : /\.(ts|mjs)$/.test(name) && !name.endsWith('.test.ts') ? st.mtimeMs : 0,
    );
  }, 0);
}

function builtAt(file: string): number {
  try {
    return statSync(path.resolve(file)).mtimeMs;
  } catch {
    return 0;
  }
}

export function ensureBuilt(): void {
  const built = Math.min(...OUTPUTS.map(builtAt));
  if (built >= Math.max(...SOURCES.map(newest))) return;
  const run = spawnSync('npm', ['run', 'build', '--silent'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run build failed: ${run.stderr || run.stdout}`);
}
