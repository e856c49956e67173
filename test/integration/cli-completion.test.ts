/**
 * Shell completion: `isvc-doctor __complete WORD…` (cobra's protocol, which the bash and zsh scripts
 * and kubectl's plugin completion read) completes subcommands, flags, flag values, and namespaces,
 * contexts and InferenceService names from the cluster the words name; the bash script offers them
 * in a real bash.
 */
import { execFile } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_COMMANDS } from '../../src/cli/cli-commands.js';
import { main } from '../../src/cli/main.js';
import { ensureBuilt } from '../support/ensure-built.js';
import { freePort } from '../support/redis-server.js';
import { runCliMain } from '../support/run-cli.mjs';
import { tempDir } from '../support/temp-dirs.js';
import { useTwoNamespaceCluster } from '../support/two-namespace-cluster.js';

const cluster = useTwoNamespaceCluster();

const SCENARIO = 'test/scenarios/storage-uri-not-found';
// a loaded CI machine may take longer than the 3 s a tab waits for a cluster: these tests check the candidates, not the wait
const COMPLETION_TIMEOUT = { ISVC_DOCTOR_COMPLETION_TIMEOUT_MS: '60000' };
const savedTimeout = process.env.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS;
beforeAll(() => {
  process.env.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS = COMPLETION_TIMEOUT.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS;
});
afterAll(() => {
  if (savedTimeout === undefined) delete process.env.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS;
  else process.env.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS = savedTimeout;
});

/** The candidates (without descriptions) and the directive of `__complete ...words`. */
async function complete(...words: string[]): Promise<{ values: string[]; directive: number; lines: string[] }> {
  const r = await runCliMain(main, ['__complete', ...words]);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  const directive = Number(lines.pop()!.replace(/^:/, ''));
  return { values: lines.map((l) => l.split('\t')[0]!), directive, lines };
}

describe('__complete', () => {
  it('completes subcommands, with their summaries, and the global flags', async () => {
    const all = await complete('');
    expect(all.values).toEqual([...CLI_COMMANDS.map((c) => c.name), 'help']);
    expect(all.lines[0]).toMatch(/^diagnose\twhy an InferenceService or LLMInferenceService is not ready/);
    expect(all.directive).toBe(4);
    expect((await complete('st')).values).toEqual(['status']);
    expect((await complete('--v')).values).toEqual(['--version']);
    expect((await complete('help', 'dia')).values).toEqual(['diagnose']);
  });

  it("completes a command's flags, long and short, leaving out those given", async () => {
    const flags = (await complete('status', '-')).values;
    expect(flags).toEqual(
      expect.arrayContaining([
        '-n',
        '--namespace',
        '-A',
        '--all-namespaces',
        '-o',
        '--output',
        '--snapshot',
        '--kubeconfig',
        '--context',
        '--config',
      ]),
    );
    expect((await complete('status', '-A', '--')).values).not.toContain('--all-namespaces');
    expect((await complete('serve', '--r')).values).toEqual(['--role']);
  });

  it('completes the choices of a flag and of a positional', async () => {
    expect((await complete('diagnose', 'x', '-o', '')).values).toEqual(['text', 'json', 'yaml']);
    expect((await complete('status', '--output', 'y')).values).toEqual(['yaml']);
    expect((await complete('serve', '--role', '')).values).toEqual(['all', 'web', 'worker', 'watcher', 'agent']);
    expect((await complete('completion', '')).values).toEqual(['bash', 'zsh']);
    expect((await complete('completion', 'bash', '')).values).toEqual([]);
  });

  it('asks the shell for folders after --snapshot and files after --kubeconfig', async () => {
    expect(await complete('diagnose', '--snapshot', 'te')).toEqual(
      expect.objectContaining({ values: [], directive: 16 }),
    );
    expect(await complete('diagnose', '--kubeconfig', '')).toEqual(
      expect.objectContaining({ values: [], directive: 0 }),
    );
  });

  it('completes InferenceService names from a snapshot', async () => {
    expect((await complete('diagnose', '--snapshot', SCENARIO, '')).values).toEqual(['sklearn-iris']);
    expect((await complete('diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '')).values).toEqual([]);
  });

  it("completes names in the kubeconfig context's namespace, or -n's", async () => {
    expect((await complete('diagnose', '--kubeconfig', cluster().kubeconfig, '')).values).toEqual(['fraud-lgbm']);
    expect(
      (await complete('diagnose', '--kubeconfig', cluster().kubeconfig, '--namespace=default', 'sk')).values,
    ).toEqual(['sklearn-iris', 'sklearn-iris-v2']);
    expect((await complete('diagnose', '--kubeconfig', cluster().kubeconfig, '--context', 'plain', '')).values).toEqual(
      ['sklearn-iris', 'sklearn-iris-v2'],
    );
  });

  it('completes contexts (with their namespaces) and namespaces', async () => {
    const contexts = await complete('status', '--kubeconfig', cluster().kubeconfig, '--context', '');
    expect(contexts.lines).toEqual(['team\tnamespace payments-ml', 'plain', 'ghost']);
    expect((await complete('status', '--kubeconfig', cluster().kubeconfig, '-n', '')).values).toEqual(
      expect.arrayContaining(['default', 'payments-ml']),
    );
  });

  it('offers nothing, at once, when the cluster does not answer or the kubeconfig is bad', async () => {
    const file = path.join(tempDir('isvc-doctor-comp-'), 'config');
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${await freePort()}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    expect(await complete('diagnose', '--kubeconfig', file, '')).toEqual({ values: [], directive: 4, lines: [] });
    expect(await complete('diagnose', '--kubeconfig', cluster().kubeconfig, '--context', 'nope', '')).toEqual({
      values: [],
      directive: 4,
      lines: [],
    });
  });
});

describe('isvc-doctor completion bash', () => {
  let bin: string;
  beforeAll(() => {
    ensureBuilt();
    bin = tempDir('isvc-doctor-bin-');
    symlinkSync(path.resolve('dist/src/cli/isvc-doctor.js'), path.join(bin, 'isvc-doctor'));
  });

  /** COMPREPLY after a TAB at the end of `line` in a real bash with the script loaded. */
  function tab(line: string): Promise<string[]> {
    const words = line.split(' ');
    const script = `source <(isvc-doctor completion bash)\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}\n_isvc_doctor_complete\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
    return new Promise((resolve, reject) =>
      execFile(
        'bash',
        ['-c', script],
        { env: { PATH: `${bin}:${process.env.PATH}`, HOME: bin, ...COMPLETION_TIMEOUT }, timeout: 60_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}: ${stderr}`)) : resolve(stdout.split('\n').filter(Boolean)),
      ),
    );
  }

  it('is registered for isvc-doctor, and completes commands, flag values and names through __complete', async () => {
    expect(await tab('isvc-doctor sta')).toEqual(['status']);
    expect(await tab('isvc-doctor diagnose -o j')).toEqual(['json']);
    expect(await tab(`isvc-doctor diagnose --kubeconfig ${cluster().kubeconfig} -n default sklearn-iris-`)).toEqual([
      'sklearn-iris-v2',
    ]);
    expect(await tab('isvc-doctor diagnose --snapshot test/scenarios/raw-deploy')).toEqual([
      'test/scenarios/raw-deployment-oom',
    ]);
  });

  it('prints a zsh script that asks __complete too', async () => {
    const r = await runCliMain(main, ['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('#compdef isvc-doctor');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the zsh script's own parameter expansion
    expect(r.stdout).toContain('__complete "${(@)words[2,CURRENT]}"');
    expect((await runCliMain(main, ['completion', 'fish'])).stderr).toMatch(
      /^isvc-doctor: no completion for shell "fish": bash or zsh\n/,
    );
  });
});
