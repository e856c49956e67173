/**
 * A failed rollout: the new revision of a spec change fails while the previous one still takes the
 * traffic. The root cause says so (both revisions, the traffic, what changed), carries the new
 * revision's own cause, and its next step is that cause's fix or the rollback; a new revision that
 * is still starting is not a failed rollout.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../../src/snapshot/load-snapshot.js';

const DIR = 'test/scenarios/rollout-new-revision-tag-missing-previous-serves';
const TARGET = { namespace: 'default', name: 'sklearn-iris' };
const NEW = 'sklearn-iris-predictor-00002';

type Obj = { kind?: string; apiVersion?: string; metadata?: { name?: string }; status?: Record<string, unknown> };

async function diagnoseVariant(change: (objects: Obj[]) => void): Promise<Report> {
  const snapshot: Snapshot = await loadSnapshot(DIR);
  change(snapshot.objects as Obj[]);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), TARGET, { now: () => new Date('2024-06-01T00:00:00Z') });
  } finally {
    await simulator.close();
  }
}

describe('failed rollout', () => {
  it('is the root cause: the new revision failed, the previous one serves, the fix or the rollback is next', async () => {
    const report = await diagnoseVariant(() => {});
    const root = report.findings[0]!;
    expect(report.rootCause).toBe('ROLLOUT_FAILED');
    expect(root.subject).toBe(`Revision default/${NEW}`);
    expect(root.title).toContain('sklearn-iris-predictor-00001 still serves 100%');
    const texts = root.evidence.map((e) => e.text ?? '');
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^traffic: sklearn-iris-predictor-00001 \(latest ready\) 100%/),
        expect.stringMatching(/^ConfigurationsReady=False \(RevisionFailed\)/),
        expect.stringContaining('image kserve/sklearnserver:v0.11.1 -> kserve/sklearnserver:v0.11.9'),
        expect.stringContaining("the new revision's own root cause: IMAGE_DIGEST_RESOLUTION_FAILED"),
      ]),
    );
    expect(root.next).toMatch(new RegExp(`^for revision ${NEW}: .*runtimeVersion.*; or roll back: .*v0\\.11\\.1`));
    // what the new revision failed on, and "the revision is missing", follow from the failed rollout
    const consequences = Object.fromEntries(report.findings.slice(1).map((f) => [f.code, f.consequenceOf]));
    expect(consequences).toMatchObject({
      IMAGE_DIGEST_RESOLUTION_FAILED: 'ROLLOUT_FAILED',
      REVISION_MISSING: 'ROLLOUT_FAILED',
    });
    const flow = report.findings.find((f) => f.code === 'REQUEST_FLOW')!;
    expect(flow.evidence.find((e) => e.ref.startsWith('Service '))?.text).toContain(
      `still serving; ${NEW}, the latest, has not taken over`,
    );
  });

  it('is not reported while the new revision is still starting', async () => {
    const report = await diagnoseVariant((objects) => {
      const rev = objects.find((o) => o.kind === 'Revision' && o.metadata?.name === NEW)!;
      rev.status = {
        conditions: [
          { type: 'Ready', status: 'Unknown', reason: 'Deploying' },
          { type: 'ContainerHealthy', status: 'Unknown', reason: 'Deploying' },
        ],
      };
    });
    expect(report.findings.map((f) => f.code)).not.toContain('ROLLOUT_FAILED');
  });

  it('is not reported when the previous revision takes no traffic', async () => {
    const report = await diagnoseVariant((objects) => {
      const ksvc = objects.find((o) => o.kind === 'Service' && o.apiVersion?.startsWith('serving.knative.dev'))!;
      ksvc.status = { ...ksvc.status, traffic: [] };
    });
    expect(report.findings.map((f) => f.code)).not.toContain('ROLLOUT_FAILED');
  });
});
