/**
 * restart-pods against the simulator: the plan lists exactly the failed pods of the component (dry-run
 * DELETEs with a uid precondition, no real write), the diagnosis offers the same pods, validate
 * notices a replaced or recovered pod, and apply deletes each pod once (a retried apply deletes
 * nothing more and never touches a pod of the same name with another uid).
 */
import path from 'node:path';
import { diagnose } from '../../../src/app/diagnoser.js';
import { makeKubeClients, kubeConfigForServer } from '../../../src/kube/client.js';
import { ClusterWriter } from '../../../src/kube/cluster-writer.js';
import { actionById } from '../../../src/remediation/actions/index.js';
import type { ActionContext } from '../../../src/remediation/types.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const GI = 1024 ** 3;
const sims: RunningSimulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.close();
});

async function setup(scenario: string, target: { namespace: string; name: string }) {
  const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios', scenario)) });
  sims.push(sim);
  const kubeConfig = kubeConfigForServer(sim.url);
  const ctx: ActionContext = {
    writer: new ClusterWriter(makeKubeClients(kubeConfig)),
    target,
    settings: { maxMemoryBytes: 16 * GI, knativeNamespace: 'knative-serving' },
  };
  const action = actionById('restart-pods')!;
  const deletes = (from = 0) => sim.requests.slice(from).filter((r) => r.verb === 'delete' && r.resource === 'pods');
  return { sim, kubeConfig, ctx, action, deletes };
}

it('storage-uri-not-found (v1alpha2): not offered (its fix edits storageUri, which rolls out new pods); planned, one failed predictor pod, dry-run delete only', async () => {
  const target = { namespace: 'default', name: 'sklearn-iris' };
  const { kubeConfig, ctx, action, deletes } = await setup('storage-uri-not-found', target);
  const report = await diagnose(kubeConfig, target);
  expect(report.findings.find((f) => f.code === 'STORAGE_URI_NOT_FOUND')?.next).toMatch(
    /^kubectl edit inferenceservice/,
  );
  expect(report.findings.filter((f) => f.remediation?.action === 'restart-pods')).toHaveLength(0);

  const plan = await action.plan(ctx, action.params.parse({ component: 'predictor' }));
  const pod = 'sklearn-iris-predictor-default-29jks-deployment-5f7d4b9996hzrnc';
  expect(plan.write).toEqual({
    kind: 'delete-pods',
    namespace: 'default',
    pods: [{ name: pod, uid: 'f0eba994-1f25-5614-a71c-73245d090f85' }],
  });
  expect(plan.target).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: pod });
  expect(plan.isvc).toMatchObject({
    kind: 'InferenceService',
    apiVersion: 'serving.kubeflow.org/v1alpha2',
    name: 'sklearn-iris',
  });
  expect(plan.changes).toEqual([
    {
      path: `pod ${pod}`,
      before: expect.stringContaining('storage-initializer'),
      after: 'deleted (its ReplicaSet creates a new pod)',
    },
  ]);
  expect(plan.risk).toBe('medium');
  expect(plan.riskNote).toMatch(/only helps after the cause is fixed/);
  expect(deletes().map((r) => r.query.dryRun)).toEqual(['All']);
});

it('crashloop-import-error (KServe): the crashing predictor pod; transformer-crashloop: only the transformer pod', async () => {
  const a = await setup('crashloop-import-error', { namespace: 'growth-ml', name: 'churn-predictor' });
  const report = await diagnose(a.kubeConfig, { namespace: 'growth-ml', name: 'churn-predictor' });
  const crash = report.findings.find((f) => f.code === 'CRASH_LOOP')!;
  expect(crash.remediation).toMatchObject({
    action: 'restart-pods',
    params: { component: 'predictor', revision: 'churn-predictor-predictor-00001' },
    needsApproval: true,
  });
  const plan = await a.action.plan(a.ctx, a.action.params.parse(crash.remediation!.params));
  expect((plan.write as any).pods.map((p: any) => p.name)).toEqual([
    'churn-predictor-predictor-00001-deployment-7jhrjh8c75-khfww',
  ]);

  const b = await setup('transformer-crashloop', { namespace: 'vision', name: 'flower-classifier' });
  const tplan = await b.action.plan(b.ctx, b.action.params.parse({ component: 'transformer' }));
  expect((tplan.write as any).pods.map((p: any) => p.name)).toEqual([
    'flower-classifier-transformer-00001-deployment-95vmrgt2kz-6lv47',
  ]);
  await expect(b.action.plan(b.ctx, b.action.params.parse({ component: 'predictor' }))).rejects.toMatchObject({
    code: 'REMEDIATION_NOTHING_TO_CHANGE',
  });
});

it('OOM pods get raise-memory-limit, not a restart', async () => {
  const { kubeConfig } = await setup('oom-exit-code-137', { namespace: 'default', name: 'sklearn-iris' });
  const report = await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
  expect(report.findings.map((f) => f.remediation?.action).filter(Boolean)).toEqual(['raise-memory-limit']);
});

it('validate: a replaced pod is stale; apply deletes once, and a retry deletes nothing more', async () => {
  const target = { namespace: 'growth-ml', name: 'churn-predictor' };
  const { sim, ctx, action, deletes } = await setup('crashloop-import-error', target);
  const plan = await action.plan(ctx, action.params.parse({ component: 'predictor' }));
  const name = (plan.write as any).pods[0].name as string;
  expect(await action.validate(ctx, plan)).toEqual({ ok: true });

  const real = () => deletes().filter((r) => r.query.dryRun === undefined);
  expect(real()).toHaveLength(0);
  expect(await action.apply(ctx, plan, 'rp-test')).toBe('applied');
  expect(real().map((r) => [r.name, r.status])).toEqual([[name, 200]]);
  expect(sim.store.get('v1', 'Pod', 'growth-ml', name)).toBeUndefined();
  // a retry after a crash: the pod is gone, nothing else is deleted
  expect(await action.apply(ctx, plan, 'rp-test')).toBe('already-applied');
  expect(real().map((r) => r.status)).toEqual([200, 404]);
  expect(await action.validate(ctx, plan)).toMatchObject({ ok: false, reason: 'gone' });

  // a new pod under the same name (another uid) is never deleted by the old plan
  const again = await setup('crashloop-import-error', target);
  const plan2 = await again.action.plan(again.ctx, again.action.params.parse({ component: 'predictor' }));
  const live = again.sim.store.get('v1', 'Pod', 'growth-ml', name)!;
  again.sim.store.delete('v1', 'Pod', 'growth-ml', name);
  again.sim.store.upsert({
    ...live,
    metadata: { ...live.metadata, uid: 'another-uid', resourceVersion: undefined },
  } as any);
  expect(await again.action.validate(again.ctx, plan2)).toMatchObject({ ok: false, reason: 'stale' });
  expect(await again.action.apply(again.ctx, plan2, 'rp-test2')).toBe('already-applied');
  expect(again.sim.store.get('v1', 'Pod', 'growth-ml', name)!.metadata.uid).toBe('another-uid');
});
