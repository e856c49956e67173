/**
 * Why an entry point is missing or waiting, read from the mechanism: the gateway Service a Knative
 * route waits for (inferenceservice-config's ingressService), a RawDeployment's Ingress / HTTPRoute
 * the controller cannot make (the API version against discovery, the ingress keys it requires), and
 * a v1alpha2 canary left out of KFServing's route; plus the pure readings they share.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import { serviceHostRef } from '../../../src/diagnosis/ingress-config.js';
import { waitingForLoadBalancer } from '../../../src/diagnosis/ingress-gateway-readiness.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import type { KnativeService } from '../../../src/kube/schemas.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

async function reportOf(dir: string, target: { namespace: string; name: string }): Promise<Report> {
  const simulator = await startSimulator({ snapshot: await loadSnapshot(`test/scenarios/${dir}`), port: 0 });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), target, { now: () => new Date('2024-06-01T00:00:00Z') });
  } finally {
    await simulator.close();
  }
}

const ksvc = (conditions: Array<{ type: string; status: string; reason?: string; message?: string }>) =>
  ({ metadata: { name: 'm-predictor' }, status: { conditions } }) as unknown as KnativeService;

describe('ingress readings', () => {
  it('reads a gateway Service host as name and namespace', () => {
    expect(serviceHostRef('istio-ingressgateway.istio-system.svc.cluster.local')).toEqual({
      name: 'istio-ingressgateway',
      namespace: 'istio-system',
    });
    expect(serviceHostRef('kfserving-ingressgateway.istio-system')).toEqual({
      name: 'kfserving-ingressgateway',
      namespace: 'istio-system',
    });
    expect(serviceHostRef('disabled')).toBeUndefined();
    expect(serviceHostRef(undefined)).toBeUndefined();
  });

  it('waits for the load balancer only while the configuration is ready', () => {
    const waiting = { status: 'Unknown', reason: 'Uninitialized', message: 'Waiting for load balancer to be ready' };
    expect(
      waitingForLoadBalancer(
        ksvc([
          { type: 'ConfigurationsReady', status: 'True' },
          { type: 'RoutesReady', ...waiting },
        ]),
      )?.type,
    ).toBe('RoutesReady');
    // the revision is not ready: the route waits for it, not for the gateway
    expect(
      waitingForLoadBalancer(
        ksvc([
          { type: 'ConfigurationsReady', status: 'False', reason: 'RevisionFailed' },
          { type: 'RoutesReady', ...waiting },
        ]),
      ),
    ).toBeUndefined();
    expect(
      waitingForLoadBalancer(
        ksvc([
          { type: 'ConfigurationsReady', status: 'True' },
          {
            type: 'RoutesReady',
            status: 'Unknown',
            reason: 'IngressNotConfigured',
            message: 'Ingress has not yet been reconciled.',
          },
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('ingress causes over scenarios', () => {
  it('names the gateway Service, its pods and the restart when the route waits for the load balancer', async () => {
    const report = await reportOf('cluster-ingress-gateway-stale-waiting-for-load-balancer', {
      namespace: 'kubeflow-zt',
      name: 'sklearn-iris',
    });
    const root = report.findings[0]!;
    expect(root).toMatchObject({
      code: 'INGRESS_NOT_CONFIGURED',
      subject: 'Service istio-system/istio-ingressgateway',
    });
    expect(root.next).toContain('kubectl rollout restart deployment/istio-ingressgateway -n istio-system');
    expect(root.next).toContain('sklearn-iris-predictor-00001');
  });

  it('compares the Ingress version the controller writes with what the API server serves (Kubernetes 1.18)', async () => {
    const report = await reportOf('version-rawdeployment-ingress-v1-k8s-1-18', {
      namespace: 'kserve-test',
      name: 'sklearn-iris',
    });
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NOT_CREATED');
    expect(root.next).toContain('Kubernetes 1.19+');
    expect(root.next).toContain('networking.k8s.io/v1beta1');
  });

  it('installs the Gateway API CRDs of the release KServe builds against when HTTPRoute is not served', async () => {
    const report = await reportOf('version-raw-gateway-api-httproute-crd-missing-controller-panics', {
      namespace: 'kserve-test',
      name: 'sklearn-iris',
    });
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NOT_CREATED');
    expect(root.next).toContain('gateway-api/releases/download/v1.2.1/standard-install.yaml');
    expect(root.next).toContain('"enableGatewayApi": false');
  });

  it('names the ingress keys the controller requires and the ConfigMap lacks', async () => {
    const report = await reportOf('cluster-raw-ingress-config-missing-ingress-gateway-service', {
      namespace: 'kserve-test',
      name: 'llama-2-7b',
    });
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NOT_CREATED');
    expect(root.next).toContain('"ingressGateway": "knative-serving/knative-ingress-gateway"');
    expect(root.next).toContain('"ingressService": "istio-ingressgateway.istio-system.svc.cluster.local"');
  });

  it('says nothing of the ingress when its keys are set and no refusal names an API or a key', async () => {
    const report = await reportOf('admission-raw-host-label-over-63-disable-ingress-creation', {
      namespace: 'watsonx-huggingface',
      name: 'granite-13b-chat-v2-inference-service',
    });
    expect(report.findings.map((f) => f.code)).not.toContain('RAW_INGRESS_NOT_CREATED');
  });

  it("reads a v1alpha2 canary's values from spec.canary and its route from KFServing's RoutesReady", async () => {
    const crash = await reportOf('canary-v1alpha2-init-crashloop-while-ready', {
      namespace: 'default',
      name: 'style-sample',
    });
    const uri = crash.findings.find((f) => f.code === 'STORAGE_URI_NOT_FOUND')!;
    expect(uri.title).toContain('gs://mybucket/mymodel-2');
    expect(crash.findings[0]!.next).not.toContain('model.onnx');

    const waiting = await reportOf('canary-v1alpha2-rollout-canary-not-in-route-routes-not-ready', {
      namespace: 'default',
      name: 'hdfsmodel',
    });
    const root = waiting.findings[0]!;
    expect(root).toMatchObject({
      code: 'CANARY_UNHEALTHY',
      revision: 'hdfsmodel-predictor-canary-qk2mz',
      remediation: null,
    });
    expect(root.next).toContain('remove spec.canary');
    expect(waiting.findings.find((f) => f.code === 'TRAFFIC_SPLIT')?.title).toContain('not applied yet');
  });
});
