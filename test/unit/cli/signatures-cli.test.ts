/**
 * A team's signature file, without a rebuild: `isvc-doctor signatures test FILE` runs its samples;
 * named in the config (`diagnosis.signatures`) it adds findings to a diagnosis; a file with an
 * error stops `diagnose` and `serve` with exit 2 and one line naming the file, the entry and the field.
 */
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli/main.js';
import { runCliMain } from '../../support/run-cli.mjs';

const run = (args: string[]) => runCliMain(main, args);
const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-signatures-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let afterTest = () => {};
afterEach(() => {
  jest.restoreAllMocks();
  afterTest();
  afterTest = () => {};
});

const TEAM = `signatures:
- id: feature-count-mismatch
  where: model-log
  pattern: 'feature_names mismatch: expected (?<want>\\d+), got (?<got>\\d+)'
  code: MODEL_LOAD_FAILED
  title: 'The model expects {match:want} features, the server was given {match:got}'
  next: 'Retrain or re-export the model at {storageUri} with the serving schema ({field:storageUri})'
  sample: 'WARNING [model.py:load():71] model loaded with feature_names mismatch: expected 4, got 5'
`;

function write(name: string, text: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
}

/** healthy-kserve, whose model server also logs a line only the team's file knows. */
function snapshotWithTeamLine(): string {
  const snapshot = path.join(dir, 'snapshot');
  cpSync('test/scenarios/healthy-kserve', snapshot, { recursive: true });
  const logs = path.join(snapshot, 'logs/default');
  const pod = readdirSync(logs)[0]!;
  appendFileSync(
    path.join(logs, pod, 'kserve-container.log'),
    '2023-09-14 08:14:58.930 1 kserve WARNING [model.py:load():71] model loaded with feature_names mismatch: expected 4, got 5\n',
  );
  return snapshot;
}

describe('isvc-doctor signatures test', () => {
  it('passes the shipped catalog', async () => {
    const r = await run(['signatures', 'test']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/(\d+) of \1 signatures pass/);
  });

  it('runs a team file against the catalog it joins', async () => {
    const r = await run(['signatures', 'test', write('team.yaml', TEAM)]);
    expect(r).toMatchObject({ code: 0, stdout: 'ok   feature-count-mismatch\n1 of 1 signatures pass\n' });
    const missed = await run([
      'signatures',
      'test',
      write('missed.yaml', TEAM.replace('expected 4, got 5', 'expected four')),
    ]);
    expect(missed.code).toBe(1);
    expect(missed.stdout).toContain('FAIL feature-count-mismatch');
  });

  it('stops on a bad file with exit 2 and one line', async () => {
    const bad = write('bad.yaml', TEAM.replace('(?<want>\\d+)', '(?<want>\\d+'));
    const r = await run(['signatures', 'test', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^isvc-doctor: signatures: ${bad}: entry 1 \\(id "feature-count-mismatch"\\): pattern: invalid regular expression: .*\\n$`,
      ),
    );
  });
});

describe('diagnosis.signatures in the config', () => {
  it('adds the team entry to a diagnosis, without a rebuild', async () => {
    const snapshot = snapshotWithTeamLine();
    const without = JSON.parse(
      (await run(['diagnose', 'sklearn-iris', '--snapshot', snapshot, '-o', 'json'])).stdout,
    ) as { rootCause: string | null };
    expect(without.rootCause).toBeNull();
    write('team.yaml', TEAM);
    const config = write('config.yaml', 'diagnosis:\n  signatures: [team.yaml]\n');
    const r = await run(['diagnose', 'sklearn-iris', '--snapshot', snapshot, '--config', config, '-o', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      rootCause: string;
      findings: Array<{ code: string; title: string; next?: string; evidence: Array<{ excerpt?: string[] }> }>;
    };
    expect(report.rootCause).toBe('MODEL_LOAD_FAILED');
    expect(report.findings[0]).toMatchObject({
      title: 'The model expects 4 features, the server was given 5',
      next: expect.stringContaining('spec.predictor.model.storageUri'),
    });
    expect(report.findings[0]!.evidence[0]!.excerpt).toEqual([
      expect.stringContaining('feature_names mismatch: expected 4, got 5'),
    ]);
  });

  it('stops diagnose on a bad file with exit 2 and one line', async () => {
    write('no-next.yaml', TEAM.replace(/ {2}next: .*\n/, ''));
    const config = write('config-bad.yaml', 'diagnosis:\n  signatures: [no-next.yaml]\n');
    const r = await run([
      'diagnose',
      'sklearn-iris',
      '--snapshot',
      'test/scenarios/healthy-kserve',
      '--config',
      config,
    ]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `isvc-doctor: signatures: ${path.join(dir, 'no-next.yaml')}: entry 1 (id "feature-count-mismatch"): next: required for an error code (MODEL_LOAD_FAILED)\n`,
    );
  });

  it('stops serve on a bad file with exit 2 and one line, before it starts anything', async () => {
    write('no-next.yaml', TEAM.replace(/ {2}next: .*\n/, ''));
    const config = write('serve-bad.yaml', 'diagnosis:\n  signatures: [no-next.yaml]\n');
    const env = {
      SLACK_BOT_TOKEN: process.env.SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET: process.env.SLACK_SIGNING_SECRET,
    };
    Object.assign(process.env, { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: 'test-signing' });
    afterTest = () => {
      for (const [k, v] of Object.entries(env))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    };
    const written: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const code = await main(['serve', '--config', config]);
    expect(code).toBe(2);
    expect(written).toEqual([
      `isvc-doctor: signatures: ${path.join(dir, 'no-next.yaml')}: entry 1 (id "feature-count-mismatch"): next: required for an error code (MODEL_LOAD_FAILED)\n`,
    ]);
  });
});
