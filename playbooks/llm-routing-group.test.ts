/**
 * llm-routing-group on the members of a KServe 0.20 routing group (spec.router.route.group and
 * weight): a member that is not Ready but keeps a ready replica (routable by the controller's rule)
 * keeps its share, said with that share and the member that takes it, with weight 0 offered; a
 * member that serves other model names is left out of the split, said with both model names and the
 * name to give it. A member with no ready replica (the controller routes it nothing), a stopped
 * member and a healthy group are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { llmRoutingGroup } from './llm-routing-group.js';

const NS = 'llm';

interface MemberSpec {
  name: string;
  model: string;
  weight: number;
  ready: boolean;
  readyReplicas: number;
  stopped?: boolean;
  /** status.router.group.members as the controller wrote it for this member. */
  routes?: Array<{ name: string; weight: number }>;
  degraded?: string;
}

function member(m: MemberSpec) {
  const cond = (type: string, ok: boolean, reason?: string, message?: string) => ({
    type,
    status: ok ? 'True' : 'False',
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  return {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    metadata: {
      name: m.name,
      namespace: NS,
      generation: 1,
      ...(m.stopped ? { annotations: { 'serving.kserve.io/stop': 'true' } } : {}),
    },
    spec: {
      model: { name: m.model, uri: 'hf://org/model' },
      router: { route: { group: 'chat', weight: m.weight }, gateway: {} },
    },
    status: {
      observedGeneration: 1,
      addresses: [{ url: `http://gw/llm/${m.name}`, models: [{ name: m.model }] }],
      conditions: [
        m.ready
          ? cond('Ready', true)
          : cond('Ready', false, 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
        cond('RouterReady', true),
        ...(m.degraded ? [cond('GroupDegraded', true, 'MemberDivergence', m.degraded)] : []),
      ],
      workloads: {
        primary: { apiGroup: 'apps', kind: 'Deployment', name: `${m.name}-kserve`, readyReplicas: m.readyReplicas },
      },
      router: {
        group: {
          name: 'chat',
          members: (m.routes ?? [{ name: m.name, weight: m.weight }]).map((r) => ({ ...r })),
        },
      },
    },
  };
}

const stable = (over: Partial<MemberSpec> = {}) =>
  member({ name: 'chat-v1', model: 'llama-3-8b', weight: 9, ready: true, readyReplicas: 2, ...over });
const canary = (over: Partial<MemberSpec> = {}) =>
  member({ name: 'chat-v2', model: 'llama-3-8b', weight: 1, ready: false, readyReplicas: 1, ...over });
const BOTH = [
  { name: 'chat-v1', weight: 9 },
  { name: 'chat-v2', weight: 1 },
];

describe('llm-routing-group', () => {
  it('a member not Ready with a ready replica keeps its share: its weight, the member that takes it, weight 0 offered', async () => {
    const { report } = await runPlaybook(llmRoutingGroup, [stable({ routes: BOTH }), canary({ routes: BOTH })], {
      namespace: NS,
      name: 'chat-v2',
    });
    const f = report.findings.find((x) => x.code === 'LLM_GROUP_ROUTES_UNREADY_MEMBER')!;
    expect(f).toMatchObject({ severity: 'error', subject: 'LLMInferenceService llm/chat-v2' });
    const texts = f.evidence.map((e) => e.text);
    expect(texts).toContain(
      'Ready=False (MinimumReplicasUnavailable): Deployment does not have minimum availability.; status.workloads: primary 1 ready, RouterReady True: still routed',
    );
    expect(texts).toContain("spec.router.route.weight 1: 1 of 10 (10%) of routing group chat's traffic");
    expect(f.evidence.some((e) => e.ref === 'LLMInferenceService llm/chat-v1')).toBe(true);
    expect(f.remediation).toMatchObject({
      action: 'set-llm-group-weight',
      target: 'LLMInferenceService llm/chat-v2',
      params: { member: 'chat-v2', from: 1, to: 0, keeps: 'chat-v1', group: 'chat' },
    });
    expect(f.next).toContain('"weight":0');
  });

  it('diagnosing the Ready member: the member it still routes to that is not Ready, read from the namespace', async () => {
    const { report, paths } = await runPlaybook(llmRoutingGroup, [stable({ routes: BOTH }), canary({ routes: BOTH })], {
      namespace: NS,
      name: 'chat-v1',
    });
    expect(report.findings.map((f) => [f.code, f.subject])).toContainEqual([
      'LLM_GROUP_ROUTES_UNREADY_MEMBER',
      'LLMInferenceService llm/chat-v2',
    ]);
    expect(paths.some((p) => p.endsWith('/namespaces/llm/llminferenceservices'))).toBe(true);
  });

  it('leaves alone a member with no ready replica (the controller routes it nothing) and a stopped one', async () => {
    for (const other of [canary({ readyReplicas: 0 }), canary({ stopped: true, readyReplicas: 0 })]) {
      const { report } = await runPlaybook(llmRoutingGroup, [stable(), other], { namespace: NS, name: 'chat-v1' });
      expect(report.findings.filter((f) => f.code.startsWith('LLM_GROUP'))).toEqual([]);
    }
  });

  it('offers nothing when no other member takes the share', async () => {
    const { report } = await runPlaybook(llmRoutingGroup, [canary({ routes: [{ name: 'chat-v2', weight: 1 }] })], {
      namespace: NS,
      name: 'chat-v2',
    });
    expect(report.findings.filter((f) => f.code.startsWith('LLM_GROUP'))).toEqual([]);
  });

  it('a member serving another model name is left out of the split: both names, and the name to give it', async () => {
    const { report } = await runPlaybook(
      llmRoutingGroup,
      [
        stable({ degraded: 'group has members with different model sets: llama-3.1-8b' }),
        canary({ model: 'llama-3.1-8b', ready: true, readyReplicas: 1 }),
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'chat-v1-kserve-route', namespace: NS },
          spec: { rules: [{ backendRefs: [{ kind: 'Service', name: 'chat-v1-kserve-workload-svc', weight: 9 }] }] },
        },
      ],
      { namespace: NS, name: 'chat-v1' },
    );
    const f = report.findings.find((x) => x.code === 'LLM_GROUP_MEMBER_DIVERGENT')!;
    expect(f).toMatchObject({ severity: 'error', subject: 'LLMInferenceService llm/chat-v2' });
    expect(f.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        'GroupDegraded=True (MemberDivergence): group has members with different model sets: llama-3.1-8b',
        "serves llama-3.1-8b; spec.router.route.weight 1: left out of chat-v1's route",
      ]),
    );
    // what the gateway is told: the route splits over this member alone
    expect(f.evidence).toContainEqual({
      kind: 'field',
      ref: 'HTTPRoute llm/chat-v1-kserve-route',
      text: 'backendRefs (weight): chat-v1-kserve-workload-svc 9',
    });
    expect(f.next).toContain('{"spec":{"model":{"name":"llama-3-8b"}}}');
    expect(report.findings.some((x) => x.code === 'LLM_GROUP_ROUTES_UNREADY_MEMBER')).toBe(false);
  });

  it('a healthy group, and a service in no group (no read at all)', async () => {
    const healthy = await runPlaybook(llmRoutingGroup, [stable({ routes: BOTH }), canary({ ready: true })], {
      namespace: NS,
      name: 'chat-v1',
    });
    expect(healthy.report.findings.filter((f) => f.code.startsWith('LLM_GROUP'))).toEqual([]);
    const alone = member({ name: 'solo', model: 'm', weight: 1, ready: true, readyReplicas: 1 });
    (alone.spec.router as { route?: unknown }).route = {};
    const solo = await runPlaybook(llmRoutingGroup, [alone], { namespace: NS, name: 'solo' });
    expect(solo.report.findings.filter((f) => f.code.startsWith('LLM_GROUP'))).toEqual([]);
    expect(solo.paths.filter((p) => p.endsWith('/llminferenceservices'))).toEqual([]);
  });
});
