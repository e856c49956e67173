/**
 * The CLI reads the cluster as kubectl does: the default namespace is the kubeconfig context's
 * (else default), -n and NAMESPACE/NAME override it, and a kubeconfig, context or cluster that does
 * not exist is bad input (exit 2, one line on stderr naming it). `status` lists a namespace or all
 * of them, with the root cause of each service that is not Ready.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { main } from '../../src/cli/main.js';
import { runCliMain } from '../support/run-cli.mjs';
import { tempDir } from '../support/temp-dirs.js';
import { useTwoNamespaceCluster } from '../support/two-namespace-cluster.js';

const cluster = useTwoNamespaceCluster();

const run = (...args: string[]) => runCliMain(main, args);
const targetOf = (stdout: string) =>
  (JSON.parse(stdout) as { target: { namespace: string; name: string }; rootCause: string | null }).target;

/** Runs with KUBECONFIG and HOME set as given (client-node reads them), restoring them after. */
async function withEnv<T>(env: { KUBECONFIG?: string; HOME?: string }, fn: () => Promise<T>): Promise<T> {
  const saved = { KUBECONFIG: process.env.KUBECONFIG, HOME: process.env.HOME };
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  if (!('KUBECONFIG' in env)) delete process.env.KUBECONFIG;
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe('the namespace, as kubectl chooses it', () => {
  it("defaults to the kubeconfig context's namespace", async () => {
    const r = await run('diagnose', 'fraud-lgbm', '--kubeconfig', cluster().kubeconfig, '-o', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(targetOf(r.stdout)).toEqual(expect.objectContaining({ namespace: 'payments-ml', name: 'fraud-lgbm' }));
    expect((JSON.parse(r.stdout) as { rootCause: string }).rootCause).toBe('OOM_KILLED');
  });

  it('uses default when the context names no namespace, and KUBECONFIG like --kubeconfig', async () => {
    const r = await withEnv({ KUBECONFIG: cluster().kubeconfig }, () =>
      run('diagnose', 'sklearn-iris', '--context', 'plain', '-o', 'json'),
    );
    expect(r.code).toBe(0);
    expect(targetOf(r.stdout).namespace).toBe('default');
  });

  it('takes -n and NAMESPACE/NAME over the context', async () => {
    expect(
      targetOf(
        (await run('diagnose', 'sklearn-iris', '-n', 'default', '--kubeconfig', cluster().kubeconfig, '-o', 'json'))
          .stdout,
      ).namespace,
    ).toBe('default');
    expect(
      targetOf(
        (await run('diagnose', 'default/sklearn-iris', '--kubeconfig', cluster().kubeconfig, '-o', 'json')).stdout,
      ).namespace,
    ).toBe('default');
  });
});

describe('a kubeconfig or context that does not exist is bad input', () => {
  const missing = () => path.join(tempDir('isvc-doctor-nokc-'), 'nothing-here');
  it.each([
    [
      'a context it does not have',
      () => ['--kubeconfig', cluster().kubeconfig, '--context', 'nope'],
      /^isvc-doctor: context "nope" does not exist in .*\(its contexts: team, plain, ghost\)$/,
    ],
    [
      'a context whose cluster it does not have',
      () => ['--kubeconfig', cluster().kubeconfig, '--context', 'ghost'],
      /^isvc-doctor: context "ghost" names cluster "gone", which .* does not have$/,
    ],
    [
      'a --kubeconfig file that does not exist',
      () => ['--kubeconfig', missing()],
      /^isvc-doctor: kubeconfig .*nothing-here does not exist$/,
    ],
  ])('%s: exit 2, one line', async (_what, flags, message) => {
    for (const command of [['diagnose', 'sklearn-iris'], ['status']]) {
      const r = await run(...command, ...flags());
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a KUBECONFIG file that does not exist: exit 2, one line', async () => {
    const r = await withEnv({ KUBECONFIG: missing() }, () => run('diagnose', 'sklearn-iris'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^isvc-doctor: cannot load the kubeconfig: ENOENT: no such file or directory, open '.*nothing-here'\n$/,
    );
  });

  it('no kubeconfig at all (no KUBECONFIG, no ~/.kube/config, not a pod): exit 2, one line', async () => {
    const r = await withEnv({ HOME: tempDir('isvc-doctor-home-') }, () => run('diagnose', 'sklearn-iris'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^isvc-doctor: no kubeconfig: .*pass --kubeconfig FILE \(or --snapshot DIR\)\n$/);
  });

  it('a kubeconfig that does not parse: exit 2, one line', async () => {
    const file = path.join(tempDir('isvc-doctor-badkc-'), 'config');
    writeFileSync(file, 'clusters: [\n');
    const r = await run('status', '--kubeconfig', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^isvc-doctor: cannot load the kubeconfig: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('isvc-doctor status', () => {
  it("lists the context's namespace as a table, with the root cause of what is not Ready, exit 1", async () => {
    const r = await run('status', '--kubeconfig', cluster().kubeconfig);
    expect(r.code).toBe(1);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['NAME', 'READY', 'ROOT CAUSE', 'URL']);
    expect(rows.map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([['fraud-lgbm', 'False', 'OOM_KILLED']]);
  });

  it('lists one namespace with -n, exit 0 when all are Ready', async () => {
    const r = await run('status', '-n', 'default', '--kubeconfig', cluster().kubeconfig);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s{2,}/).slice(0, 3)),
    ).toEqual([
      ['sklearn-iris', 'True', '<none>'],
      ['sklearn-iris-v2', 'True', '<none>'],
    ]);
  });

  it('lists every namespace with -A, with a NAMESPACE column', async () => {
    const r = await run('status', '-A', '--kubeconfig', cluster().kubeconfig, '--context', 'plain');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s{2,}/).slice(0, 3)).toEqual(['NAMESPACE', 'NAME', 'READY']);
    expect(
      lines
        .slice(1)
        .map((l) =>
          l
            .split(/\s{2,}/)
            .slice(0, 2)
            .join('/'),
        )
        .sort(),
    ).toEqual(['default/sklearn-iris', 'default/sklearn-iris-v2', 'payments-ml/fraud-lgbm']);
  });

  it('prints {items} as JSON or the same as YAML', async () => {
    const json = await run('status', '-A', '--kubeconfig', cluster().kubeconfig, '-o', 'json');
    const yaml = await run('status', '-A', '--kubeconfig', cluster().kubeconfig, '-o', 'yaml');
    const items = (
      JSON.parse(json.stdout) as {
        items: Array<{ namespace: string; name: string; ready: boolean; rootCause: string | null; apiVersion: string }>;
      }
    ).items;
    expect(items.find((i) => i.name === 'fraud-lgbm')).toEqual(
      expect.objectContaining({
        namespace: 'payments-ml',
        ready: false,
        rootCause: 'OOM_KILLED',
        apiVersion: 'serving.kserve.io/v1beta1',
      }),
    );
    expect(items.find((i) => i.name === 'sklearn-iris')).toEqual(
      expect.objectContaining({ ready: true, rootCause: null }),
    );
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect([json.code, yaml.code]).toEqual([1, 1]);
  });

  it('says so on stderr when a namespace has none, exit 0', async () => {
    const r = await run('status', '-n', 'empty', '--kubeconfig', cluster().kubeconfig);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', 'No InferenceServices found in namespace empty.\n']);
  });

  it.each([
    [['status', '-A', '-n', 'default'], /use either -n NAMESPACE or -A, not both/],
    [['status', 'sklearn-iris'], /status takes no NAME/],
    [['status', '-o', 'xml'], /-o must be text, json or yaml, not "xml"/],
    [['status', '-n', 'Bad_NS'], /not a valid namespace/],
  ])('rejects %j with exit 2', async (args, message) => {
    const r = await run(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(message);
  });
});
