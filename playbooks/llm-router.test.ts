/**
 * llm-router on an LLMInferenceService's managed route, its Gateway, InferencePool and endpoint
 * picker: a Gateway with no address (Programmed=False) and one that does not exist are the gateway's
 * problem; a Gateway that exists and is Programmed while RefsInvalid says it is missing is the
 * controller's misreading; a route its Gateway refuses (with the parent's reason and the backend) or
 * one with no backendRefs; a pool no Gateway accepted, and WaitingForGateway while one has; an
 * endpoint picker crashing on a forbidden list, said with the log line. A healthy router is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { type Cond, condition } from '../test/support/condition.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { llmRouter } from './llm-router.js';

const NS = 'inference';
const NAME = 'mistral-7b';
const GW = 'kserve-ingress-gateway';
const EPP_POD = 'mistral-7b-kserve-router-scheduler-9f0a1b2c3-e6d8w';
const LABELS = { 'app.kubernetes.io/name': NAME, 'app.kubernetes.io/part-of': 'llminferenceservice' };
const EPP_LABELS = { ...LABELS, 'app.kubernetes.io/component': 'llminferenceservice-router-scheduler' };

const c = condition;

function llmisvc(conditions: Cond[] = [], router: Record<string, unknown> = { route: {}, gateway: {}, scheduler: {} }) {
  return {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    metadata: { name: NAME, namespace: NS, generation: 1 },
    spec: { model: { uri: 'hf://mistralai/Mistral-7B-Instruct-v0.3', name: 'mistral' }, replicas: 1, router },
    status: {
      observedGeneration: 1,
      conditions: [c('PresetsCombined', 'True'), ...conditions],
    },
  };
}

function gateway(conditions: Cond[] = [c('Accepted', 'True', 'Accepted'), c('Programmed', 'True', 'Programmed')]) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: GW, namespace: 'kserve', generation: 1 },
    spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
    status: { conditions },
  };
}

function route(
  parentConditions: Cond[] | null = [c('Accepted', 'True', 'Accepted'), c('ResolvedRefs', 'True', 'ResolvedRefs')],
  backendRefs: unknown[] = [
    { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: `${NAME}-inference-pool`, port: 8000 },
  ],
) {
  const parentRef = { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GW, namespace: 'kserve' };
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: `${NAME}-kserve-route`, namespace: NS, labels: LABELS },
    spec: {
      parentRefs: [parentRef],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: `/${NS}/${NAME}` } }], backendRefs }],
    },
    status: {
      parents: parentConditions
        ? [{ controllerName: 'istio.io/gateway-controller', parentRef, conditions: parentConditions }]
        : [],
    },
  };
}

function pool(accepted: Cond | null = c('Accepted', 'True', 'Accepted')) {
  return {
    apiVersion: 'inference.networking.k8s.io/v1',
    kind: 'InferencePool',
    metadata: { name: `${NAME}-inference-pool`, namespace: NS, labels: LABELS },
    spec: { selector: { matchLabels: LABELS }, targetPorts: [{ number: 8000 }] },
    status: {
      parents: accepted
        ? [
            {
              parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GW, namespace: 'kserve' },
              conditions: [accepted],
            },
          ]
        : [],
    },
  };
}

function eppDeployment(available: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${NAME}-kserve-router-scheduler`, namespace: NS, generation: 1, labels: EPP_LABELS },
    spec: {
      replicas: 1,
      selector: { matchLabels: EPP_LABELS },
      template: { metadata: { labels: EPP_LABELS }, spec: { containers: [{ name: 'main', image: 'epp:v0.2.1' }] } },
    },
    status: { observedGeneration: 1, replicas: 1, availableReplicas: available, readyReplicas: available },
  };
}

const crashingEpp = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: EPP_POD, namespace: NS, labels: EPP_LABELS },
  spec: { containers: [{ name: 'main', image: 'epp:v0.2.1' }] },
  status: {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'main',
        image: 'epp:v0.2.1',
        ready: false,
        restartCount: 9,
        lastState: { terminated: { exitCode: 1, reason: 'Error' } },
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=main' } },
      },
    ],
  },
};

const FORBIDDEN =
  '{"level":"error","msg":"Failed to watch","error":"failed to list *v1.Pod: pods is forbidden: User \\"system:serviceaccount:inference:mistral-7b-epp-sa\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"inference\\""}';

const TARGET = { namespace: NS, name: NAME };
const GW_REF = 'Gateway kserve/kserve-ingress-gateway';
const SUBJECT = 'LLMInferenceService inference/mistral-7b';
const ROUTE_REF = 'HTTPRoute inference/mistral-7b-kserve-route';
const POOL_REF = 'InferencePool inference/mistral-7b-inference-pool';
const texts = (f: { evidence: Array<{ text?: string }> }) => f.evidence.map((e) => e.text);

describe('llm-router', () => {
  it('a Gateway with no address is not ready: its class and Programmed=False; a missing one is not found', async () => {
    const noAddress = await runPlaybook(
      llmRouter,
      [
        llmisvc(),
        route(null),
        pool(),
        eppDeployment(1),
        gateway([
          c('Accepted', 'True', 'Accepted'),
          c(
            'Programmed',
            'False',
            'AddressNotAssigned',
            'failed to assign to all requested addresses: address pending',
          ),
        ]),
      ],
      TARGET,
    );
    expect(noAddress.codes).toEqual(['LLM_GATEWAY_NOT_READY']);
    const f = noAddress.report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: GW_REF });
    expect(texts(f)).toEqual(
      expect.arrayContaining([
        'gatewayClassName: istio',
        'Programmed=False (AddressNotAssigned): failed to assign to all requested addresses: address pending',
      ]),
    );
    expect(f.next).toContain('gateway.networking.k8s.io/gateway-name=kserve-ingress-gateway');

    const missing = await runPlaybook(
      llmRouter,
      [
        llmisvc([
          c(
            'HTTPRoutesReady',
            'False',
            'RefsInvalid',
            'Managed HTTPRoute references non-existent Gateway kserve/other',
          ),
        ]),
        route(null),
        pool(),
        eppDeployment(1),
      ],
      TARGET,
    );
    const m = missing.report.findings.find((x) => x.code === 'LLM_GATEWAY_NOT_READY')!;
    expect(m).toMatchObject({ severity: 'error', subject: GW_REF });
    expect(m.evidence[0]).toMatchObject({ kind: 'field', ref: GW_REF, text: 'not found' });
  });

  it('RefsInvalid naming a Gateway that exists and is Programmed: the controller misreads, said on the service', async () => {
    const { report } = await runPlaybook(
      llmRouter,
      [
        llmisvc([
          c(
            'HTTPRoutesReady',
            'False',
            'RefsInvalid',
            `Managed HTTPRoute references non-existent Gateway kserve/${GW}`,
          ),
        ]),
        route(),
        pool(),
        eppDeployment(1),
        gateway(),
      ],
      TARGET,
    );
    expect(report.findings.map((f) => [f.code, f.severity, f.subject])).toEqual([
      ['LLMISVC_NOT_READY', 'error', SUBJECT],
    ]);
    expect(report.findings[0]!.evidence).toEqual([
      {
        kind: 'condition',
        ref: SUBJECT,
        text: `HTTPRoutesReady=False (RefsInvalid): Managed HTTPRoute references non-existent Gateway kserve/${GW}`,
      },
      { kind: 'condition', ref: GW_REF, text: 'Programmed=True (Programmed)' },
    ]);
  });

  it("a route its Gateway refuses: the parent's reason and the backend; a route with no backendRefs", async () => {
    const refused = await runPlaybook(
      llmRouter,
      [
        llmisvc(),
        route([
          c(
            'Accepted',
            'False',
            'NotAllowedByListeners',
            'No listeners included by this parent ref allowed this attachment.',
          ),
        ]),
        pool(),
        eppDeployment(1),
        gateway(),
      ],
      TARGET,
    );
    expect(refused.codes).toEqual(['LLM_ROUTE_NOT_ACCEPTED']);
    const f = refused.report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: ROUTE_REF });
    expect(texts(f)).toEqual([
      `parent ${GW} (istio.io/gateway-controller): Accepted=False (NotAllowedByListeners): No listeners included by this parent ref allowed this attachment.`,
      'backendRef: inference.networking.k8s.io/InferencePool mistral-7b-inference-pool',
    ]);
    expect(f.next).toContain('allowedRoutes.namespaces.from');

    const empty = await runPlaybook(
      llmRouter,
      [llmisvc(), route(undefined, []), pool(), eppDeployment(1), gateway()],
      TARGET,
    );
    expect(empty.codes).toEqual(['LLM_ROUTE_NOT_ACCEPTED']);
    expect(texts(empty.report.findings[0]!)).toEqual(['spec.rules[*].backendRefs: none']);
  });

  it('a pool no Gateway accepted is not ready; WaitingForGateway while a Gateway accepted it is a misreading', async () => {
    const none = await runPlaybook(
      llmRouter,
      [
        llmisvc([c('InferencePoolReady', 'False', 'WaitingForGateway')]),
        route(),
        pool(null),
        eppDeployment(1),
        gateway(),
      ],
      TARGET,
    );
    expect(none.codes).toEqual(['LLM_INFERENCE_POOL_NOT_READY']);
    expect(none.report.findings[0]).toMatchObject({ severity: 'error', subject: POOL_REF });
    expect(texts(none.report.findings[0]!)).toContain('status.parents: none');

    const byo = { gateway: { refs: [{ name: GW, namespace: 'kserve' }] }, scheduler: {} };
    const waiting = await runPlaybook(
      llmRouter,
      [
        llmisvc(
          [c('InferencePoolReady', 'False', 'WaitingForGateway', 'no Gateway controller has accepted it yet')],
          byo,
        ),
        pool(),
        eppDeployment(1),
        gateway(),
      ],
      TARGET,
    );
    expect(waiting.codes).toEqual(['LLMISVC_NOT_READY']);
    const f = waiting.report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual({
      kind: 'condition',
      ref: POOL_REF,
      text: `parent kserve/${GW}: Accepted=True (Accepted)`,
    });
  });

  it('an endpoint picker crashing on a forbidden list: its replicas, the log line, and the verb to grant', async () => {
    const { report, codes } = await runPlaybook(
      llmRouter,
      [llmisvc(), route(), pool(), eppDeployment(0), crashingEpp, gateway()],
      TARGET,
      {
        logs: {
          [`${NS}/${EPP_POD}/main#previous`]: `{"level":"info","msg":"Starting manager"}\n${FORBIDDEN}\n{"level":"error","msg":"problem running manager"}\n`,
        },
      },
    );
    expect(codes).toEqual(['LLM_INFERENCE_POOL_NOT_READY']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: 'Deployment inference/mistral-7b-kserve-router-scheduler' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: 'replicas 1, availableReplicas 0' }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', ref: `Pod inference/${EPP_POD}`, container: 'main', lineNumbers: [2] }),
    );
    expect(f.next).toContain('system:serviceaccount:inference:mistral-7b-epp-sa list pods');
  });

  it('leaves alone a healthy router: Gateway Programmed, route accepted, pool accepted, picker available', async () => {
    const { codes } = await runPlaybook(
      llmRouter,
      [llmisvc([c('InferencePoolReady', 'True')]), route(), pool(), eppDeployment(1), gateway()],
      TARGET,
    );
    expect(codes.filter((x) => x.startsWith('LLM'))).toEqual([]);
  });
});
