/**
 * ingress-probes on a Serverless service whose Knative Service is stuck in IngressNotConfigured: the
 * status code in the networking controller's probe lines about this service decides the blocker (302
 * or 401: auth on the gateway, with the ext_authz EnvoyFilter on the gateway workload as evidence;
 * 403: Istio RBAC in the namespace), the controller's release label decides
 * KNATIVE_PROBES_NOT_BEST_EFFORT; with no probe line to read, the Istio RBAC in the namespace is
 * reported as inferred. A route waiting for its load balancer while the revision is ready, with no
 * probe refused, is INGRESS_NOT_CONFIGURED on the ingress gateway's Service and its pods.
 */
import { describe, expect, it } from '@jest/globals';
import type { Cond as Condition } from '../test/support/condition.js';
import { irisKnativeService } from '../test/support/iris-knative-service.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { ingressProbes } from './ingress-probes.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const HOST = 'iris-predictor.ml.example.com';
const CONTROLLER = 'networking-istio-7f6d8c7f96-2hrxq';

function isvc(mode?: 'RawDeployment') {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'iris',
      namespace: 'ml',
      generation: 1,
      ...(mode ? { annotations: { 'serving.kserve.io/deploymentMode': mode } } : {}),
    },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris' } } },
    status: {
      observedGeneration: 1,
      url: 'http://iris.ml.example.com',
      conditions: [
        { type: 'IngressReady', status: 'Unknown' },
        { type: 'PredictorReady', status: 'Unknown', reason: 'IngressNotConfigured' },
        { type: 'Ready', status: 'Unknown', reason: 'IngressNotConfigured' },
      ],
    },
  };
}

function ksvc(route: Condition) {
  return irisKnativeService({
    conditions: [
      { type: 'ConfigurationsReady', status: 'True' },
      { ...route, type: 'Ready' },
      { ...route, type: 'RoutesReady' },
    ],
    latestCreatedRevisionName: 'iris-predictor-00001',
    latestReadyRevisionName: 'iris-predictor-00001',
    url: `http://${HOST}`,
  });
}

const STUCK: Condition = {
  type: 'RoutesReady',
  status: 'Unknown',
  reason: 'IngressNotConfigured',
  message: 'Ingress has not yet been reconciled.',
};
const READY: Condition = { type: 'RoutesReady', status: 'True' };

function controller(release: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: CONTROLLER,
      namespace: 'knative-serving',
      labels: { app: 'networking-istio', 'serving.knative.dev/release': release },
    },
    spec: { containers: [{ name: 'networking-istio', image: `gcr.io/knative-releases/networking-istio:${release}` }] },
    status: { phase: 'Running' },
  };
}

const probeLine = (status: number) =>
  `{"level":"error","ts":"2026-11-02T09:20:41.517Z","logger":"istiocontroller.ingress-controller.status-manager","msg":"Probing of http://${HOST}:80/ failed, IP: 10.88.1.13:80, ready: false, error: unexpected status code: want [200], got ${status} (depth: 0)"}`;
const otherLine =
  '{"level":"error","ts":"2026-11-02T09:20:42.000Z","logger":"istiocontroller.ingress-controller.status-manager","msg":"Probing of http://other-predictor.team-b.example.com:80/ failed, IP: 10.88.1.13:80, ready: false, error: unexpected status code: want [200], got 403 (depth: 0)"}';
const logs = (...lines: string[]) => ({
  logs: { [`knative-serving/${CONTROLLER}/networking-istio`]: `${lines.join('\n')}\n` },
});

const knativeGateway = {
  apiVersion: 'networking.istio.io/v1alpha3',
  kind: 'Gateway',
  metadata: { name: 'knative-ingress-gateway', namespace: 'knative-serving' },
  spec: {
    selector: { istio: 'ingressgateway' },
    servers: [{ hosts: ['*'], port: { name: 'http', number: 80, protocol: 'HTTP' } }],
  },
};

const extAuthz = {
  apiVersion: 'networking.istio.io/v1alpha3',
  kind: 'EnvoyFilter',
  metadata: { name: 'authn-filter', namespace: 'istio-system' },
  spec: {
    workloadSelector: { labels: { istio: 'ingressgateway' } },
    filters: [
      {
        filterName: 'envoy.ext_authz',
        filterType: 'HTTP',
        listenerMatch: { listenerType: 'GATEWAY' },
        filterConfig: { httpService: { serverUri: { uri: 'http://authservice.istio-system.svc.cluster.local' } } },
      },
    ],
  },
};

const denyAll = {
  apiVersion: 'security.istio.io/v1beta1',
  kind: 'AuthorizationPolicy',
  metadata: { name: 'ns-owner-access-istio', namespace: 'ml' },
  spec: {
    action: 'ALLOW',
    rules: [{ when: [{ key: 'request.headers[kubeflow-userid]', values: ['alice@example.com'] }] }],
  },
};

const emitted = (codes: string[]) => codes.filter((c) => ingressProbes.emits.includes(c as never));

describe('ingress-probes', () => {
  it("reports probes refused with 302 by auth on the gateway, with the controller's line and the ext_authz filter", async () => {
    const { report } = await runPlaybook(
      ingressProbes,
      [isvc(), ksvc(STUCK), controller('v0.11.1'), knativeGateway, extAuthz],
      TARGET,
      logs(probeLine(302), otherLine),
    );
    const f = report.findings.find((x) => x.code === 'PROBE_BLOCKED_BY_AUTH')!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod knative-serving/${CONTROLLER}` });
    // the lines about this service, not another's
    expect(f.evidence[0]).toMatchObject({
      kind: 'log',
      container: 'networking-istio',
      excerpt: [probeLine(302)],
      lineNumbers: [1],
    });
    expect(f.evidence).toContainEqual(expect.objectContaining({ ref: 'EnvoyFilter istio-system/authn-filter' }));
    expect(report.findings.map((x) => x.code)).not.toContain('PROBE_BLOCKED_BY_RBAC');

    // v0.11.1 has no best-effort probes: the refused probe keeps the service unready
    const old = report.findings.find((x) => x.code === 'KNATIVE_PROBES_NOT_BEST_EFFORT')!;
    expect(old).toMatchObject({ severity: 'warning', subject: 'Knative Serving knative-serving' });
    expect(old.evidence).toContainEqual(
      expect.objectContaining({
        ref: `Pod knative-serving/${CONTROLLER}`,
        text: 'serving.knative.dev/release: v0.11.1',
      }),
    );
  });

  it('reports probes refused with 403 as Istio RBAC in the namespace, and a release with best-effort probes as such', async () => {
    const { report } = await runPlaybook(
      ingressProbes,
      [isvc(), ksvc(STUCK), controller('v0.14.0'), knativeGateway, denyAll],
      TARGET,
      logs(probeLine(403)),
    );
    expect(emitted(report.findings.map((x) => x.code))).toEqual(['PROBE_BLOCKED_BY_RBAC']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod knative-serving/${CONTROLLER}` });
    expect(f.evidence[0]).toMatchObject({ kind: 'log', excerpt: [probeLine(403)] });
    expect(f.evidence).toContainEqual(expect.objectContaining({ ref: 'AuthorizationPolicy ml/ns-owner-access-istio' }));
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'field', text: 'Knative v0.14.0' }));
  });

  it('with no probe line to read while the ingress is stuck, infers the Istio RBAC in the namespace', async () => {
    const { report } = await runPlaybook(ingressProbes, [isvc(), ksvc(STUCK), knativeGateway, denyAll], TARGET);
    const f = report.findings.find((x) => x.code === 'PROBE_BLOCKED_BY_RBAC')!;
    expect(f).toMatchObject({ subject: 'Namespace ml' });
    expect(f.evidence).toContainEqual(expect.objectContaining({ ref: 'AuthorizationPolicy ml/ns-owner-access-istio' }));
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'note', text: expect.stringMatching(/^inferred: no probe status code/) }),
    );
  });

  it('reports a route waiting for its load balancer while the revision is ready as the ingress gateway not serving it', async () => {
    const { report } = await runPlaybook(
      ingressProbes,
      [
        isvc(),
        ksvc({
          type: 'RoutesReady',
          status: 'Unknown',
          reason: 'Uninitialized',
          message: 'Waiting for load balancer to be ready',
        }),
        controller('v1.10.1'),
        knativeGateway,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'istio-ingressgateway', namespace: 'istio-system' },
          spec: { type: 'LoadBalancer', selector: { istio: 'ingressgateway' }, ports: [{ name: 'http2', port: 80 }] },
          status: { loadBalancer: {} },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'istio-ingressgateway-6b6d9b6f9f-7mzqd',
            namespace: 'istio-system',
            labels: { istio: 'ingressgateway', app: 'istio-ingressgateway' },
          },
          spec: { containers: [{ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.20.0' }] },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
        },
      ],
      TARGET,
      logs(),
    );
    expect(emitted(report.findings.map((x) => x.code))).toEqual(['INGRESS_NOT_CONFIGURED']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({
      severity: 'error',
      subject: 'Service istio-system/istio-ingressgateway',
      component: 'predictor',
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        ref: 'Knative Service ml/iris-predictor',
        text: 'RoutesReady=Unknown (Uninitialized): Waiting for load balancer to be ready',
      }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        ref: 'Service istio-system/istio-ingressgateway',
        text: expect.stringContaining('EXTERNAL-IP pending; pods (istio=ingressgateway): 0/1 ready'),
      }),
    );
  });

  it('finds nothing when the route is ready and the probes pass, nor for a RawDeployment service', async () => {
    const ready = await runPlaybook(
      ingressProbes,
      [isvc(), ksvc(READY), controller('v0.11.1'), knativeGateway, extAuthz, denyAll],
      TARGET,
      logs(probeLine(200), otherLine),
    );
    expect(emitted(ready.codes)).toEqual([]);
    const raw = await runPlaybook(
      ingressProbes,
      [isvc('RawDeployment'), ksvc(STUCK), controller('v0.11.1'), knativeGateway, extAuthz],
      TARGET,
      logs(probeLine(302)),
    );
    expect(emitted(raw.codes)).toEqual([]);
  });
});
