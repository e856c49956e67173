/** The CLI contract (shared/contract/cli.md): output formats and exit statuses, through main(). */
import { describe, expect, it } from '@jest/globals';
import { parse as parseYaml } from 'yaml';
import { main } from '../../../src/cli/main.js';
import { freePort } from '../../support/redis-server.js';
import { runCliMain } from '../../support/run-cli.mjs';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterAll(removeTempDirs);

const run = (args: string[]) => runCliMain(main, args);

const SCENARIO = 'test/scenarios/storage-uri-not-found';

describe('isvc-doctor diagnose', () => {
  it('prints exactly one JSON object with the root cause, and exits 1 on an error finding', async () => {
    const r = await run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as {
      rootCause: string;
      target: { apiVersion: string };
      findings: Array<{ code: string; evidence: Array<{ excerpt?: string[] }> }>;
      stats: { apiRequests: number };
    };
    expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
    expect(report.findings[0]!.code).toBe('STORAGE_URI_NOT_FOUND');
    expect(report.findings[0]!.evidence.some((e) => e.excerpt?.some((l) => l.includes('does not exist')))).toBe(true);
    expect(report.stats.apiRequests).toBeGreaterThan(0);
  });

  it("gives each finding its next step, filled with the service's names and field path, in JSON and text", async () => {
    const json = await run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'json']);
    const report = JSON.parse(json.stdout) as { findings: Array<{ code: string; next: string | null }> };
    // the signature that decided it gives a next step with this case's storageUri
    expect(report.findings[0]!.next).toBe(
      'kubectl edit inferenceservice sklearn-iris -n default: set spec.default.predictor.sklearn.storageUri to a path that exists (or upload the model to gs://kfserving-samples/models/sklearn/iris-1)',
    );
    expect(report.findings.find((f) => f.code === 'REQUEST_FLOW')?.next ?? null).toBeNull();
    const text = await run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO]);
    expect(text.stdout).toContain(
      'next: kubectl edit inferenceservice sklearn-iris -n default: set spec.default.predictor.sklearn.storageUri',
    );
  });

  it('prints the same object as YAML with -o yaml', async () => {
    const [json, yaml] = await Promise.all([
      run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'json']),
      run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'yaml']),
    ]);
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toBe('');
    const fromYaml = parseYaml(yaml.stdout) as { stats: { durationMs: number } };
    const fromJson = JSON.parse(json.stdout) as { stats: { durationMs: number } };
    fromYaml.stats.durationMs = fromJson.stats.durationMs = 0;
    expect(fromYaml).toEqual(fromJson);
    expect(yaml.stdout).toMatch(/^rootCause: STORAGE_URI_NOT_FOUND$/m);
  });

  it('prints the root cause first in text', async () => {
    const r = await run(['diagnose', 'default/sklearn-iris', '--snapshot', SCENARIO]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toContain('root cause STORAGE_URI_NOT_FOUND');
  });

  it('reports ISVC_NOT_FOUND with close names, exit 1', async () => {
    const r = await run(['diagnose', 'sklearn-irsi', '--snapshot', SCENARIO, '-o', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { rootCause: string; findings: Array<{ title: string }> };
    expect(report.rootCause).toBe('ISVC_NOT_FOUND');
    expect(report.findings[0]!.title).toContain('sklearn-iris');
  });

  it('names the namespaces that do hold the name, and the command for each, when the one asked has none', async () => {
    const llm = 'test/scenarios/llm-runtime-hf-vllm-cuda-oom-loading-weights'; // qwq-32b lives in research
    const r = await run(['diagnose', 'qwq-32b', '-n', 'default', '--snapshot', llm, '-o', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { rootCause: string; findings: Array<{ title: string; next: string }> };
    expect(report.rootCause).toBe('ISVC_NOT_FOUND');
    expect(report.findings[0]!.title).toBe(
      'No InferenceService "qwq-32b" in namespace default (it is in namespace research)',
    );
    expect(report.findings[0]!.next).toBe(
      'qwq-32b is in namespace research, not default: isvc-doctor diagnose qwq-32b -n research',
    );
  });

  it.each([
    [['diagnose', 'Bad_Name', '--snapshot', SCENARIO], /not a valid InferenceService name/],
    [['diagnose', 'sklearn-iris', '--bogus'], /^isvc-doctor: Unknown option '--bogus'\nusage: isvc-doctor diagnose /],
    [['diagnose', 'sklearn-iris', '--snapshot', 'no/such/folder'], /does not exist/],
    [['diagnose', 'sklearn-iris', '-o', 'xml', '--snapshot', SCENARIO], /-o must be text, json or yaml, not "xml"/],
    [
      ['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '--context', 'x'],
      /use either --snapshot or --kubeconfig\/--context/,
    ],
    [['diagnose'], /missing the InferenceService NAME/],
    [['frobnicate'], /unknown command/],
  ])('rejects bad usage %j with one clear message and exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the file and line of YAML that does not parse', async () => {
    const r = await run(['diagnose', 'x', '--snapshot', 'test/fixtures/cli/bad-yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/objects\.yaml:\d+/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 3 when the cluster cannot be reached', async () => {
    const port = await freePort();
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir('isvc-doctor-kc-');
    const file = `${dir}/config`;
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    const r = await run(['diagnose', 'sklearn-iris', '--kubeconfig', file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot reach the Kubernetes API/);
  });
});

describe('diagnosisConfigFrom', () => {
  it('takes remediation.maxMemory as the cap of the memory offer, and names a bad one', async () => {
    const { diagnosisConfigFrom } = await import('../../../src/cli/diagnose-command.js');
    expect(diagnosisConfigFrom({ remediation: { maxMemory: '8Gi' } }, 'c.yaml')).toEqual({
      maxMemoryBytes: 8 * 1024 ** 3,
    });
    expect(
      diagnosisConfigFrom({ remediation: { maxMemory: '4Gi' }, diagnosis: { knativeNamespace: 'kn' } }, 'c.yaml'),
    ).toEqual({ maxMemoryBytes: 4 * 1024 ** 3, knativeNamespace: 'kn' });
    expect(() => diagnosisConfigFrom({ remediation: { maxMemory: 'lots' } }, 'c.yaml')).toThrow(
      'c.yaml: remediation.maxMemory: expected a memory quantity like 16Gi',
    );
  });
});

describe('isvc-doctor diagnose: bad config and error lines', () => {
  it.each([
    ['diagnosis:\n  knativeNamespace: 5\n', /config\.yaml: diagnosis\.knativeNamespace: expected string, got number$/],
    ['queue: {concurrency: "four"}\n', /config\.yaml: queue\.concurrency: expected number, got string$/],
    ['diagnosis:\n  logTailLines: many\n', /config\.yaml: diagnosis: unknown key\(s\) logTailLines$/],
    ['- just\n- a list\n', /config\.yaml: expected a mapping of config keys/],
  ])(
    'refuses a config with wrong types or keys (%j) as bad input: exit 2, one line naming the file and the key',
    async (text, problem) => {
      const dir = tempDir('bad-config-');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(`${dir}/config.yaml`, text);
      const r = await run(['diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '--config', `${dir}/config.yaml`]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(problem);
    },
  );

  it('shows terminal escapes and redacts secrets in an error line instead of sending them', async () => {
    const dir = tempDir('bad-snapshot-');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${dir}/objects.yaml`,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: "\u001b]8;;https://evil.example\u0007x"}\nspec: [\n',
    );
    const r = await run(['diagnose', 'sklearn-iris', '--snapshot', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const unknown = await run(['\u001b[2Jdiagnose']);
    expect(unknown.stderr).toContain('unknown command "^[[2Jdiagnose"');
  });
});
