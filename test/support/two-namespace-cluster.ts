/**
 * A cluster for the CLI's namespace and context tests, served by the simulator: two scenarios in one
 * (payments-ml/fraud-lgbm OOMKilled, from raw-deployment-oom; default/sklearn-iris and
 * default/sklearn-iris-v2 Ready, from isvc-not-found), and a kubeconfig with the contexts
 * `team` (namespace payments-ml, the current one), `plain` (no namespace) and `ghost` (a cluster the
 * file does not have).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll } from '@jest/globals';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../src/snapshot/load-snapshot.js';
import { removeTempDirs, tempDir } from './temp-dirs.js';

export interface TwoNamespaceCluster {
  sim: RunningSimulator;
  /** The kubeconfig file (current context: team). */
  kubeconfig: string;
  close(): Promise<void>;
}

const keyOf = (o: Record<string, unknown>) => {
  const m = (o.metadata ?? {}) as { namespace?: string; name?: string };
  return `${String(o.apiVersion)}/${String(o.kind)}/${m.namespace ?? ''}/${m.name ?? ''}`;
};

async function mergedSnapshot(dirs: string[]): Promise<Snapshot> {
  const parts = await Promise.all(dirs.map((d) => loadSnapshot(path.resolve(d))));
  const objects = new Map<string, Record<string, unknown>>();
  for (const p of parts) for (const o of p.objects) objects.set(keyOf(o), o);
  return {
    dir: parts[0]!.dir,
    objects: [...objects.values()],
    logs: new Map(parts.flatMap((p) => [...p.logs])),
    deny: [],
  };
}

export async function startTwoNamespaceCluster(): Promise<TwoNamespaceCluster> {
  const sim = await startSimulator({
    snapshot: await mergedSnapshot(['test/scenarios/raw-deployment-oom', 'test/scenarios/isvc-not-found']),
  });
  const kubeconfig = path.join(tempDir('isvc-doctor-cli-kc-'), 'config');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: sim, cluster: {server: "${sim.url}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: u, user: {}}]',
      'contexts:',
      '- {name: team, context: {cluster: sim, user: u, namespace: payments-ml}}',
      '- {name: plain, context: {cluster: sim, user: u}}',
      '- {name: ghost, context: {cluster: gone, user: u}}',
      'current-context: team',
      '',
    ].join('\n'),
  );
  return { sim, kubeconfig, close: () => sim.close() };
}

/** The cluster for the tests of this file: started before them, stopped (and the temp folders removed) after. */
export function useTwoNamespaceCluster(): () => TwoNamespaceCluster {
  let cluster: TwoNamespaceCluster | undefined;
  beforeAll(async () => {
    cluster = await startTwoNamespaceCluster();
  });
  afterAll(async () => {
    await cluster?.close();
    removeTempDirs();
  });
  return () => cluster!;
}
