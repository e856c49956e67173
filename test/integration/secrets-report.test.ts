/**
 * Outside-in: the secrets corpus written into a failing storage-initializer's log, termination
 * message, modelStatus, a revision condition and a Warning event, diagnosed by the CLI (text, JSON,
 * and YAML of the JSON). Prints "secrets leaked L of N" and requires 0, with every sample shown.
 * `node scripts/redaction-report.mjs` prints the same figure from the built CLI.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { formatLeakReport, measureLeaks } from '../fixtures/secrets/measure-leaks.mjs';
import { SECRET_SAMPLES } from '../fixtures/secrets/secret-corpus.mjs';
import { TARGET, writeSecretsSnapshot } from '../fixtures/secrets/secrets-snapshot.mjs';
import { runCliMain } from '../support/run-cli.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runCli = (args: string[]) => runCliMain(main, args);

describe('secrets in cluster data, through the CLI', () => {
  it('leaks none of the corpus, and shows every sample', async () => {
    // every third format here (the engine sees all of them in test/unit/logs/redact-corpus.test.ts, the
    // CLI all of them in test/reliability/secrets.test.ts): 1,440 diagnoses took over 10 minutes on a loaded CI machine
    const samples = SECRET_SAMPLES.filter((_, i) => i % 3 === 0);
    const results = await measureLeaks({ runCli, dir: path.join(dir, 'corpus'), samples });
    console.log(formatLeakReport(results));
    expect(results.length).toBeGreaterThanOrEqual(100);
    expect(results.filter((r) => r.leaked.length > 0)).toEqual([]);
    expect(results.filter((r) => !r.shown).map((r) => `${r.sample} in ${r.place}`)).toEqual([]);
  }, 600_000);

  it('shows terminal control sequences from the cluster in the text output instead of sending them', async () => {
    const lines = [
      '\u001b[2J\u001b[HERROR Access Denied',
      'ERROR see \u001b]8;;https://evil.example\u001b\\the docs\u001b]8;;\u001b\\ (403)',
      'ERROR 403 \u009b31mForbidden\u0007',
    ];
    const place = { lines };
    writeSecretsSnapshot(
      path.join(dir, 'escapes'),
      { log: place, podMessage: place, modelStatus: place, condition: place, event: place },
      { logsReadable: true },
    );
    const r = await runCli(['diagnose', TARGET.name, '-n', TARGET.namespace, '--snapshot', path.join(dir, 'escapes')]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toContain('^[[2J^[[HERROR Access Denied');
    expect(r.stdout).toContain('^[]8;;https://evil.example^[\\the docs^[]8;;^[\\ (403)');
    expect(r.stdout).toContain('ERROR 403 <U+009B>31mForbidden^G');
  });
});
