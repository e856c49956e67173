/**
 * Prints how many corpus secrets (test/fixtures/secrets) reach the output of the built CLI:
 * `npm run build && node scripts/redaction-report.mjs`. Exits 1 when any leaked.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatLeakReport, measureLeaks } from '../test/fixtures/secrets/measure-leaks.mjs';
import { runCliMain } from '../test/support/run-cli.mjs';

const mainJs = path.resolve('dist/src/cli/main.js');
if (!existsSync(mainJs)) {
  process.stderr.write('redaction-report: dist/src/cli/main.js is missing: run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(mainJs).href);

const runCli = (args) => runCliMain(main, args);

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-secrets-'));
try {
  const results = await measureLeaks({ runCli, dir: path.join(dir, 'snapshot') });
  process.stdout.write(`${formatLeakReport(results)}\n`);
  process.exitCode = results.some((r) => r.leaked.length > 0) ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
