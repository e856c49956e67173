/**
 * The report's raise-memory-limit offer says what the proposal will do: for oom-exit-code-137
 * (256Mi limit = request) with no cap, a LimitRange max, a LimitRange maxLimitRequestRatio and a
 * configured maximum, the diagnosis' diff and summary equal the plan's (computed from the dry run),
 * and at the cap both refuse (the report gives a manual fix, the plan REMEDIATION_AT_LIMIT).
 */
import path from 'node:path';
import { diagnose } from '../../../src/app/diagnoser.js';
import { diffLines } from '../../../src/changes/field-changes.js';
import { parseMemory } from '../../../src/core/memory-quantity.js';
import { kubeConfigForServer, makeKubeClients } from '../../../src/kube/client.js';
import { ClusterWriter } from '../../../src/kube/cluster-writer.js';
import { actionById } from '../../../src/remediation/actions/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const target = { namespace: 'default', name: 'sklearn-iris' };
const sims: RunningSimulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.close();
});

function limitRange(limits: Record<string, unknown>) {
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'mem-cap', namespace: 'default' },
    spec: { limits: [{ type: 'Container', ...limits }] },
  };
}

async function offerAndPlan(options: { maxMemory: string; limitRange?: Record<string, unknown> }) {
  const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/oom-exit-code-137')) });
  sims.push(sim);
  if (options.limitRange) sim.store.upsert(limitRange(options.limitRange) as any);
  const kubeConfig = kubeConfigForServer(sim.url);
  const maxMemoryBytes = parseMemory(options.maxMemory)!;
  const report = await diagnose(kubeConfig, target, { config: { maxMemoryBytes } });
  const oom = report.findings.find((f) => f.code === 'OOM_KILLED')!;
  const action = actionById('raise-memory-limit')!;
  const ctx = {
    writer: new ClusterWriter(makeKubeClients(kubeConfig)),
    target,
    settings: { maxMemoryBytes, knativeNamespace: 'knative-serving' },
  };
  const plan = await action
    .plan(
      ctx,
      action.params.parse(
        oom.remediation?.params ?? { path: ['spec', 'default', 'predictor', 'sklearn', 'resources'] },
      ),
    )
    .catch((e: unknown) => e as Error & { code: string });
  return { oom, plan, report };
}

it.each([
  ['no cap', { maxMemory: '16Gi' }, ['-   256Mi', '+   512Mi']],
  ['a LimitRange max', { maxMemory: '16Gi', limitRange: { max: { memory: '384Mi' } } }, ['-   256Mi', '+   384Mi']],
  ['a configured maximum', { maxMemory: '300Mi', limitRange: { max: { memory: '1Gi' } } }, ['-   256Mi', '+   300Mi']],
])('with %s the report shows the diff and summary the proposal will apply', async (_name, options, limitLines) => {
  const { oom, plan } = await offerAndPlan(options);
  if (plan instanceof Error) throw plan;
  expect(oom.remediation!.action).toBe('raise-memory-limit');
  expect(oom.remediation!.diff).toEqual(diffLines(plan.changes));
  expect(oom.remediation!.summary).toBe(plan.summary);
  expect(oom.remediation!.diff!.slice(1, 3)).toEqual(limitLines);
});

it('a LimitRange maxLimitRequestRatio raises the request in both', async () => {
  // limit = request, so the request follows the limit anyway; the ratio keeps it (and both say so)
  const { oom, plan } = await offerAndPlan({
    maxMemory: '16Gi',
    limitRange: { maxLimitRequestRatio: { memory: '1' } },
  });
  if (plan instanceof Error) throw plan;
  expect(oom.remediation!.diff).toEqual(diffLines(plan.changes));
  expect(plan.changes.map((c) => c.path)).toEqual([
    'spec.default.predictor.sklearn.resources.limits.memory',
    'spec.default.predictor.sklearn.resources.requests.memory',
  ]);
});

it('already at the cap: the report gives a manual fix, no button, and the plan refuses the same way', async () => {
  const { oom, plan } = await offerAndPlan({ maxMemory: '16Gi', limitRange: { max: { memory: '256Mi' } } });
  expect(oom.remediation).toMatchObject({ action: 'manual', needsApproval: false });
  expect(oom.remediation!.summary).toContain('REMEDIATION_AT_LIMIT');
  expect(oom.remediation!.summary).toContain('LimitRange mem-cap (max 256Mi)');
  expect(plan).toMatchObject({ code: 'REMEDIATION_AT_LIMIT' });
});

it('the LimitRanges are read once per diagnosis, and the diagnosis stays within 20 API requests', async () => {
  const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/oom-exit-code-137')) });
  sims.push(sim);
  const report = await diagnose(kubeConfigForServer(sim.url), target);
  expect(sim.requests.filter((r) => r.resource === 'limitranges')).toHaveLength(1);
  expect(report.stats.apiRequests).toBeLessThanOrEqual(20);
});
