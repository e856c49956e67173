/**
 * request-flow on the path a request takes. Serverless: the Istio Gateway, the top-level and the
 * Knative VirtualServices, the revision Service and the pods are drawn as hops (REQUEST_FLOW); a
 * top-level VirtualService naming a Gateway that does not exist decides GATEWAY_MISSING; a missing
 * VirtualService while the Knative Services are ready and the service is not decides
 * VIRTUALSERVICE_MISSING, with the controller's log line on the ingress. RawDeployment: the Ingress,
 * Service, Deployment and pods are drawn; an Ingress naming an IngressClass that does not exist
 * decides RAW_INGRESS_NO_CLASS, no Ingress with an ingress config the controller refuses decides
 * RAW_INGRESS_NOT_CREATED.
 */
import { describe, expect, it } from '@jest/globals';
import type { Cond as Condition } from '../test/support/condition.js';
import { irisKnativeService } from '../test/support/iris-knative-service.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { requestFlow } from './request-flow.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';
const REV = 'iris-predictor-00001';
const LABELS = { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' };

function isvc(conditions: Condition[], mode?: 'RawDeployment') {
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
    status: { observedGeneration: 1, conditions },
  };
}

const READY: Condition[] = [
  { type: 'IngressReady', status: 'True' },
  { type: 'PredictorReady', status: 'True' },
  { type: 'Ready', status: 'True' },
];
const INGRESS_NOT_CREATED: Condition[] = [
  { type: 'IngressReady', status: 'False', reason: 'IngressNotCreated', message: 'Predictor ingress not created' },
  { type: 'PredictorReady', status: 'True' },
  { type: 'Ready', status: 'False', reason: 'IngressNotCreated' },
];

const ksvc = irisKnativeService({
  conditions: [
    { type: 'ConfigurationsReady', status: 'True' },
    { type: 'Ready', status: 'True' },
    { type: 'RoutesReady', status: 'True' },
  ],
  latestCreatedRevisionName: REV,
  latestReadyRevisionName: REV,
  traffic: [{ revisionName: REV, percent: 100, latestRevision: true }],
});

const revision = {
  apiVersion: 'serving.knative.dev/v1',
  kind: 'Revision',
  metadata: {
    name: REV,
    namespace: 'ml',
    labels: {
      ...LABELS,
      'serving.knative.dev/service': 'iris-predictor',
      'serving.knative.dev/configuration': 'iris-predictor',
    },
  },
  spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }], serviceName: REV },
};

function pod(name: string, labels: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ml', labels: { ...LABELS, ...labels } },
    spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'kserve-container',
          image: 'kserve/sklearnserver:v0.14.1',
          imageID: '',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2026-11-02T09:00:00Z' } },
        },
      ],
    },
  };
}

function virtualService(name: string, gateways: string[]) {
  return {
    apiVersion: 'networking.istio.io/v1beta1',
    kind: 'VirtualService',
    metadata: { name, namespace: 'ml' },
    spec: {
      gateways,
      hosts: [`${name}.ml.example.com`],
      http: [
        { route: [{ destination: { host: 'knative-local-gateway.istio-system.svc.cluster.local' }, weight: 100 }] },
      ],
    },
  };
}

const gateway = {
  apiVersion: 'networking.istio.io/v1beta1',
  kind: 'Gateway',
  metadata: { name: 'knative-ingress-gateway', namespace: 'knative-serving' },
  spec: {
    selector: { istio: 'ingressgateway' },
    servers: [{ hosts: ['*'], port: { name: 'http', number: 80, protocol: 'HTTP' } }],
  },
};

const SERVERLESS = [ksvc, revision, pod(`${REV}-deployment-7d9f8-abcde`, { 'serving.knative.dev/revision': REV })];

const hopsOf = (report: { findings: Array<{ code: string; evidence: Array<{ ref?: string; state?: string }> }> }) =>
  report.findings.find((f) => f.code === 'REQUEST_FLOW')!.evidence.map((e) => [e.ref, e.state]);

const CONTROLLER = 'kserve-controller-manager-7c8d9f6b54-q2wds';
const controllerPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: CONTROLLER, namespace: 'kserve', labels: { 'control-plane': 'kserve-controller-manager' } },
  spec: { containers: [{ name: 'manager', image: 'kserve/kserve-controller:v0.14.1' }] },
  status: { phase: 'Running' },
};
const FORBIDDEN = JSON.stringify({
  level: 'error',
  ts: '2026-11-02T09:02:10Z',
  msg: 'Reconciler error',
  InferenceService: { name: 'iris', namespace: 'ml' },
  error:
    'fails to reconcile ingress: fails to create or update ingress: virtualservices.networking.istio.io is forbidden: User "system:serviceaccount:kserve:kserve-controller-manager" cannot create resource "virtualservices" in API group "networking.istio.io" in the namespace "ml"',
});

describe('request-flow', () => {
  it('draws every Serverless hop as ok on a healthy service, and finds nothing missing', async () => {
    const { report } = await runPlaybook(
      requestFlow,
      [
        isvc(READY),
        ...SERVERLESS,
        gateway,
        virtualService('iris', ['knative-serving/knative-ingress-gateway']),
        virtualService('iris-predictor-ingress', ['knative-serving/knative-local-gateway']),
      ],
      TARGET,
    );
    expect(report.findings.map((f) => f.code).filter((c) => c !== 'REQUEST_FLOW' && c !== 'ISVC_READY')).toEqual([]);
    expect(report.findings.find((f) => f.code === 'REQUEST_FLOW')).toMatchObject({
      severity: 'info',
      subject: SUBJECT,
    });
    expect(hopsOf(report)).toEqual([
      ['Gateway knative-serving/knative-ingress-gateway', 'ok'],
      ['VirtualService ml/iris', 'ok'],
      ['VirtualService ml/iris-predictor-ingress', 'ok'],
      [`Service ml/${REV}`, 'ok'],
      ['Pods ml/iris', 'ok'],
    ]);
  });

  it('reports the Gateway the top-level VirtualService names when it does not exist, even on a Ready service', async () => {
    const { report } = await runPlaybook(
      requestFlow,
      [
        isvc(READY),
        ...SERVERLESS,
        gateway,
        virtualService('iris', ['kubeflow/kubeflow-gateway']),
        virtualService('iris-predictor-ingress', ['knative-serving/knative-local-gateway']),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'GATEWAY_MISSING')!;
    expect(f).toMatchObject({ severity: 'error', subject: 'Gateway kubeflow/kubeflow-gateway' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        ref: 'VirtualService ml/iris',
        excerpt: ['gateways:', '- kubeflow/kubeflow-gateway'],
      }),
    );
    expect(hopsOf(report)[0]).toEqual(['Gateway kubeflow/kubeflow-gateway', 'missing']);
  });

  it("reports the top-level VirtualService missing while the Knative Service is ready, with the controller's line", async () => {
    const { report } = await runPlaybook(
      requestFlow,
      [
        isvc(INGRESS_NOT_CREATED),
        ...SERVERLESS,
        gateway,
        virtualService('iris-predictor-ingress', ['knative-serving/knative-local-gateway']),
        controllerPod,
      ],
      TARGET,
      { logs: { [`kserve/${CONTROLLER}/manager`]: `${FORBIDDEN}\n` } },
    );
    expect(report.findings.filter((f) => f.code === 'VIRTUALSERVICE_MISSING').map((f) => f.subject)).toEqual([
      'VirtualService ml/iris',
    ]);
    const f = report.findings.find((x) => x.code === 'VIRTUALSERVICE_MISSING')!;
    expect(f.severity).toBe('error');
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        text: expect.stringMatching(/^IngressReady=False \(IngressNotCreated\)/),
      }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        ref: `Pod kserve/${CONTROLLER}`,
        container: 'manager',
        excerpt: [expect.stringContaining('virtualservices.networking.istio.io is forbidden')],
      }),
    );
    expect(report.findings.map((x) => x.code)).not.toContain('GATEWAY_MISSING');
  });

  it('draws the RawDeployment hops and reports an Ingress whose IngressClass does not exist', async () => {
    const { report } = await runPlaybook(
      requestFlow,
      [
        isvc(READY, 'RawDeployment'),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: 'iris',
            namespace: 'ml',
            ownerReferences: [
              { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', name: 'iris', uid: 'u1' },
            ],
          },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'iris-ml.example.com',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'iris-predictor', port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
          status: { loadBalancer: {} },
        },
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IngressClass',
          metadata: { name: 'istio' },
          spec: { controller: 'istio.io/ingress-controller' },
        },
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'iris-predictor', namespace: 'ml', labels: LABELS },
          spec: { ports: [{ port: 80, targetPort: 8080 }], selector: { app: 'isvc.iris-predictor' } },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'iris-predictor', namespace: 'ml', labels: LABELS },
          spec: { replicas: 1 },
          status: { replicas: 1, availableReplicas: 1, readyReplicas: 1 },
        },
        pod('iris-predictor-6b7c9-abcde', { app: 'isvc.iris-predictor' }),
      ],
      TARGET,
    );
    expect(hopsOf(report)).toEqual([
      ['Ingress ml/iris', 'ok'],
      ['Service ml/iris-predictor', 'ok'],
      ['Deployment ml/iris-predictor', 'ok'],
      ['Pods ml/iris', 'ok'],
    ]);
    const f = report.findings.find((x) => x.code === 'RAW_INGRESS_NO_CLASS')!;
    expect(f).toMatchObject({ severity: 'error', subject: 'Ingress ml/iris' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: 'spec.ingressClassName: nginx; status.loadBalancer: no address' }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ text: 'istio [istio.io/ingress-controller]; none is marked default' }),
    );
  });

  it('reports no Ingress made for a RawDeployment service when the ingress config lacks the key the controller requires', async () => {
    const { report } = await runPlaybook(
      requestFlow,
      [
        isvc(
          [
            { type: 'PredictorReady', status: 'Unknown' },
            { type: 'Ready', status: 'Unknown' },
          ],
          'RawDeployment',
        ),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
          data: { ingress: JSON.stringify({ ingressDomain: 'example.com', ingressClassName: 'istio' }) },
        },
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'RAW_INGRESS_NOT_CREATED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        ref: 'ConfigMap kserve/inferenceservice-config',
        text: expect.stringMatching(/^data\.ingress: no ingressGateway /),
      }),
    );
    expect(hopsOf(report)).toContainEqual(['Ingress ml/iris', 'missing']);
  });

  it('draws nothing for a service the controller has not made Knative Services for', async () => {
    const { codes } = await runPlaybook(requestFlow, [isvc(INGRESS_NOT_CREATED), gateway], TARGET);
    expect(codes.filter((c) => requestFlow.emits.includes(c as never))).toEqual([]);
  });
});
