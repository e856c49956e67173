/**
 * `npm run bench` must keep working as the code under it changes: its cheapest row (`loading`:
 * whole `isvc-doctor` processes against `node -e 0` and the simulator) in --quick mode, from the
 * built dist/, prints its lines in the final table. The figures themselves are not asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ROWS } from '../../bench/bench-rows.js';
import { ensureBuilt } from '../support/ensure-built.js';

// an extra CA file (empty: Node loads it without a warning) that the bench must leave out of what it measures
const extraCaCerts = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-harness-')), 'extra-ca.pem');
writeFileSync(extraCaCerts, '');
const env = { ...process.env, NODE_EXTRA_CA_CERTS: extraCaCerts };
const bench = (...args: string[]) =>
  spawnSync(process.execPath, ['dist/bench/run.js', ...args], { encoding: 'utf8', timeout: 150_000, env });

beforeAll(() => ensureBuilt(), 180_000);

it('runs the loading row in --quick mode and prints it in the final table', () => {
  const run = bench('--quick', 'loading');
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(
    /^\| isvc-doctor --help vs node -e 0 +\| --help \d+ ms +\| node -e 0 \d+ ms +\| [\d.]+× +\| ≤ 2× +\| (yes|NO) +\|$/m,
  );
  expect(run.stdout).toMatch(/^\| diagnose process vs its own durationMs \+ 150 ms .*\| ≤ 1\.5× +\| (yes|NO) +\|$/m);
  expect(run.stdout).not.toMatch(/not measured/);
  expect(run.stdout).toContain(`NODE_EXTRA_CA_CERTS=${extraCaCerts} removed from every Node process measured`);
  expect(run.stdout).toMatch(/node -e 0 takes \d+ ms with it, \d+ ms without/);
}, 160_000);

it('refuses an unknown row with one line naming it and the rows there are', () => {
  const run = bench('no-such-row');
  expect(run.status).toBe(2);
  const rows = BENCH_ROWS.map((row) => row.id).join(' ');
  expect(rows).toMatch(/^cli-runbook bot-runbook loading .*mcp-token/);
  expect(run.stderr).toBe(
    `bench: unknown row or option "no-such-row"\nusage: npm run bench -- [--runs N] [--quick] [--keep-env] [ROW ...]   (rows: ${rows})\n`,
  );
});
