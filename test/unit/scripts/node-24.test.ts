import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { isRecentEnough } from '../../../scripts/node-24.mjs';

test('takes Node 22.19 and newer, and nothing older', () => {
  expect(isRecentEnough('22.19.0')).toBe(true);
  expect(isRecentEnough('24.21.0')).toBe(true);
  expect(isRecentEnough('23.0.0')).toBe(true);
  expect(isRecentEnough('22.18.9')).toBe(false);
  expect(isRecentEnough('20.20.2')).toBe(false);
});

test('runs a command on the running node when it is recent enough, fetching nothing', () => {
  const cache = mkdtempSync(path.join(tmpdir(), 'node-24-'));
  try {
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    const run = spawnSync(process.execPath, ['scripts/node-24.mjs', 'node', '-p', 'process.version'], {
      encoding: 'utf8',
      env,
    });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(process.version);
    const bin = spawnSync(process.execPath, ['scripts/node-24.mjs', '--bin-dir'], { encoding: 'utf8', env });
    expect(bin.stdout).toBe('\n');
    expect(spawnSync('ls', ['-A', cache], { encoding: 'utf8' }).stdout).toBe('');
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
