/**
 * The storage-initializer-injection playbook on the Kubeflow-namespace scenario and its variations:
 * what the pod webhooks say about the namespace decides the next step (a control-plane namespace is
 * left, a label the selector wants is added, a webhook that serves the namespace yet did not act is
 * checked for endpoints, a missing webhook is installed).
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Finding } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const DIR = 'test/scenarios/injection-tfserving-no-base-path-kubeflow-namespace-webhook-skipped';
const TARGET = { namespace: 'kubeflow', name: 'flower-sample' };
const POD = 'flower-sample-predictor-default-zwxch-deployment-957df6c85-ct98h';

type Webhook = { name: string; namespaceSelector?: unknown; rules?: Array<{ resources?: string[] }> };
type Obj = { kind?: string; metadata?: { name?: string; labels?: Record<string, string> }; webhooks?: Webhook[] };

async function rootCauseOf(change: (objects: Obj[]) => void): Promise<Finding> {
  const snapshot = await loadSnapshot(DIR);
  change(snapshot.objects as Obj[]);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    const report = await diagnose(kubeConfigForServer(simulator.url), TARGET);
    expect(report.rootCause).toBe('STORAGE_INITIALIZER_NOT_INJECTED');
    return report.findings[0]!;
  } finally {
    await simulator.close();
  }
}

const namespaceOf = (objects: Obj[]) => objects.find((o) => o.kind === 'Namespace' && o.metadata?.name === 'kubeflow')!;
const podMutatorOf = (objects: Obj[]) =>
  objects
    .filter((o) => o.kind === 'MutatingWebhookConfiguration')
    .flatMap((o) => o.webhooks ?? [])
    .find((w) => w.name.endsWith('pod-mutator'))!;

describe('storage-initializer-injection playbook', () => {
  it('sends a service in a control-plane namespace to another namespace, naming the webhook and the label', async () => {
    const root = await rootCauseOf(() => {});
    // the configuration is written as admissionregistration v1beta1; the playbook lists v1
    expect(root.evidence.map((e) => e.text)).toContain(
      'webhook inferenceservice.kfserving-webhook-server.pod-mutator: namespaceSelector control-plane DoesNotExist — skips namespace kubeflow',
    );
    expect(root.next).toBe(
      'create the InferenceService in a namespace without the control-plane label: webhook inferenceservice.kfserving-webhook-server.pod-mutator skips kubeflow, which has control-plane=kubeflow, and KServe does not serve models from its control-plane namespaces',
    );
  });

  it('adds the label a matchLabels selector wants, then re-creates the pod', async () => {
    const root = await rootCauseOf((objects) => {
      delete namespaceOf(objects).metadata!.labels!['control-plane'];
      podMutatorOf(objects).namespaceSelector = { matchLabels: { 'serving.kubeflow.org/inferenceservice': 'enabled' } };
    });
    expect(root.next).toBe(
      `kubectl label namespace kubeflow serving.kubeflow.org/inferenceservice=enabled --overwrite (webhook inferenceservice.kfserving-webhook-server.pod-mutator skips kubeflow: no serving.kubeflow.org/inferenceservice label), then kubectl delete pod ${POD} -n kubeflow so it is created again through the webhook`,
    );
  });

  it("checks the endpoints of the webhook's service when the webhook serves the namespace", async () => {
    const root = await rootCauseOf((objects) => {
      delete namespaceOf(objects).metadata!.labels!['control-plane'];
    });
    expect(root.next).toContain('webhook inferenceservice.kfserving-webhook-server.pod-mutator serves kubeflow');
    expect(root.next).toContain('kubectl get endpoints kfserving-webhook-server-service -n kubeflow');
  });

  it('says to install the webhook when no KServe webhook has a pods rule', async () => {
    const root = await rootCauseOf((objects) => {
      podMutatorOf(objects).rules = [{ resources: ['inferenceservices'] }];
    });
    expect(root.evidence.map((e) => e.text)).toContain(
      'no KServe / KFServing pod webhook is installed: nothing injects the storage-initializer',
    );
    expect(root.next).toMatch(/^install KServe's pod webhook/);
  });
});
