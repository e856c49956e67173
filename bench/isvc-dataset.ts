/**
 * A snapshot folder holding N InferenceServices in `default` (KServe v1beta1, Ready), written once
 * per run of the bench, and one `isvc-doctor simulate` serving it, shared by the rows that only read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './bench-context.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';

export const isvcName = (i: number): string => `model-${String(i).padStart(5, '0')}`;

/** The status an InferenceService has when Ready, or failing the way a broken ingress makes it. */
export function isvcStatus(name: string, ready: boolean, at = new Date().toISOString()): Record<string, unknown> {
  const notReady = { reason: 'IngressNotConfigured', message: 'Ingress has not yet been reconciled.' };
  return {
    url: `http://${name}.default.example.com`,
    conditions: [
      { type: 'PredictorReady', status: ready ? 'True' : 'False', lastTransitionTime: at },
      { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at, ...(ready ? {} : notReady) },
    ],
  };
}

function isvc(i: number): Record<string, unknown> {
  const name = isvcName(i);
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace: 'default', labels: { team: `t${i % 20}` } },
    spec: { predictor: { sklearn: { storageUri: `gs://models/${name}`, resources: { limits: { memory: '1Gi' } } } } },
    status: isvcStatus(name, true),
  };
}

export function writeIsvcDataset(dir: string, count: number): string {
  mkdirSync(dir, { recursive: true });
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } };
  const items = [namespace, ...Array.from({ length: count }, (_, i) => isvc(i))];
  writeFileSync(path.join(dir, 'objects.yaml'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return dir;
}

/** One simulator (no latency) holding `count` Ready InferenceServices, for rows that do not change it. */
export function sharedIsvcSimulator(ctx: BenchContext, count: number): Promise<SimulatorProcess> {
  return ctx.memo(`isvc-simulator:${count}`, async () => {
    const dir = writeIsvcDataset(path.join(ctx.workDir, `isvcs-${count}`), count);
    const sim = await startSimulatorProcess(dir, 0, ctx.workDir);
    ctx.onCleanup(() => sim.stop());
    return sim;
  });
}
