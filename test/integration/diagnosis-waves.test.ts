/**
 * Two waves per diagnosis: with the served versions known (remembered by the process, as in the
 * bot, or hinted from an earlier CLI run), every read that depends only on the name and namespace
 * is sent before the InferenceService's own answer arrives, and a diagnosis stays within its
 * request budget (10, or what the evidence of a scenario needs read together) and 2 dependent
 * waves, in the CLI and in the bot. A remediation offered right after
 * reuses what the diagnosis read: planning it adds no request (no second InferenceService lookup,
 * no second pod list, no second LimitRange list, no dry run: that comes with the approval).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { diagnose } from '../../src/app/diagnoser.js';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { answeredReadsOf, runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { ClusterWriter } from '../../src/kube/cluster-writer.js';
import {
  rememberServedGroups,
  servedGroupsOf,
  useDiscoveryHints,
  type ServedGroups,
} from '../../src/kube/served-groups.js';
import { actionById } from '../../src/remediation/actions/index.js';
import { offerable } from '../../src/remediation/offer-remediations.js';
import type { ActionContext } from '../../src/remediation/types.js';
import { startSimulator, type RecordedRequest, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const sims: RunningSimulator[] = [];
afterAll(async () => {
  useDiscoveryHints(null);
  for (const s of sims) await s.close();
});

/** A simulator whose every answer takes `latencyMs`, so requests sent together arrive before any answer. */
async function cluster(scenario: string, latencyMs = 0) {
  const sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios', scenario)),
    port: 0,
    latencyMs,
  });
  sims.push(sim);
  const groups = servedGroupsOf(
    (await (await fetch(`${sim.url}/apis`)).json()) as Parameters<typeof servedGroupsOf>[0],
  );
  sim.requests.length = 0;
  return { sim, kubeConfig: kubeConfigForServer(sim.url), groups };
}

const isvcGet = (r: RecordedRequest) => r.verb === 'get' && r.resource === 'inferenceservices' && r.status === 200;

/** Where each request a KubeConfig's clients send enters client-node (its authentication step), in order. */
function requestOrder(kubeConfig: KubeConfig): string[] {
  const order: string[] = [];
  const authenticate = kubeConfig.applySecurityAuthentication.bind(kubeConfig);
  kubeConfig.applySecurityAuthentication = async (context) => {
    const url = new URL(context.getUrl());
    order.push(`${url.pathname}${url.search}`);
    await authenticate(context);
  };
  return order;
}

/** The diagnosis as the CLI runs it: the playbooks loaded by the runner once the first wave is out. */
const cliDiagnose = (kubeConfig: KubeConfig, target: { namespace: string; name: string }) =>
  runDiagnosis(async () => ALL_PLAYBOOKS, kubeConfig, target);

describe('the first wave', () => {
  it.each([
    ['storage-uri-not-found', 'default', 'sklearn-iris'],
    ['image-pull-backoff', 'fraud-detection', 'fraud-predictor'],
  ])(
    '%s: the reads that need only the name and namespace go out before the InferenceService answers',
    async (scenario, namespace, name) => {
      const { sim, kubeConfig, groups } = await cluster(scenario, 400);
      rememberServedGroups(sim.url, groups);
      await diagnose(kubeConfig, { namespace, name });
      const found = sim.requests.find(isvcGet)!;
      expect(found).toBeDefined();
      const early = sim.requests
        .filter((r) => r.at < found.doneAt!)
        .map((r) => `${r.resource}${r.query.labelSelector ? `?${r.query.labelSelector}` : ''}`);
      expect(early).toEqual(
        expect.arrayContaining([
          'events',
          `pods?${groups.versions.has('serving.kserve.io') ? 'serving.kserve.io' : 'serving.kubeflow.org'}/inferenceservice=${name}`,
          'services',
          'revisions',
          'virtualservices',
          'gateways',
        ]),
      );
      // discovery remembered: no /apis, and no InferenceService version asked that the cluster does not serve
      expect(sim.requests.filter((r) => r.path === '/apis')).toHaveLength(0);
      expect(sim.requests.filter((r) => r.resource === 'inferenceservices')).toHaveLength(1);
    },
  );

  it('sends the InferenceService lookup first and the pods next (what the log reads wait for), the events after the other shared reads', async () => {
    const { sim, kubeConfig, groups } = await cluster('storage-uri-not-found', 400);
    rememberServedGroups(sim.url, groups);
    const order = requestOrder(kubeConfig);
    await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
    expect(order[0]).toBe('/apis/serving.kubeflow.org/v1alpha2/namespaces/default/inferenceservices/sklearn-iris');
    expect(order[1]).toBe(
      `/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent('serving.kubeflow.org/inferenceservice=sklearn-iris')}&limit=500`,
    );
    const events = order.indexOf('/api/v1/namespaces/default/events?limit=500'); // pods and events are paged
    for (const shared of [
      '/apis/serving.knative.dev/v1/namespaces/default/services',
      '/apis/serving.knative.dev/v1/namespaces/default/revisions',
      '/apis/networking.istio.io/v1alpha3/namespaces/default/virtualservices',
    ]) {
      expect(order.indexOf(shared)).toBeGreaterThan(1);
      expect(order.indexOf(shared)).toBeLessThan(events);
    }
  });

  it('loads the playbooks of a loader while the shared reads are out, and still sends their own reads before any answer', async () => {
    const { sim, kubeConfig, groups } = await cluster('ingress-auth-302-uaex', 400);
    rememberServedGroups(sim.url, groups);
    const order = requestOrder(kubeConfig);
    let startedBeforeLoad = -1;
    const report = await runDiagnosis(
      async () => {
        startedBeforeLoad = order.length;
        return ALL_PLAYBOOKS;
      },
      kubeConfig,
      { namespace: 'ml-team', name: 'sklearn-iris' },
    );
    expect(report.rootCause).toBe('PROBE_BLOCKED_BY_AUTH');
    // the InferenceService and the five shared reads were sent before the playbooks loaded
    expect(startedBeforeLoad).toBe(6);
    const found = sim.requests.find(isvcGet)!;
    const early = sim.requests
      .filter((r) => r.at < found.doneAt!)
      .map((r) => `${r.resource}${r.namespace ? ` in ${r.namespace}` : ''}`);
    // the ingress playbook's first-wave reads: the ingress controller's pods and the gateway
    expect(early).toEqual(expect.arrayContaining(['pods in knative-serving', 'gateways in knative-serving']));
    expect(waves(sim.requests)).toBeLessThanOrEqual(2);
  });

  it("as the bot runs it, sends each playbook's own reads (what its second wave is decided from) before the shared context", async () => {
    const { sim, kubeConfig, groups } = await cluster('ingress-auth-302-uaex');
    rememberServedGroups(sim.url, groups);
    const order = requestOrder(kubeConfig);
    const report = await diagnose(kubeConfig, { namespace: 'ml-team', name: 'sklearn-iris' });
    expect(report.rootCause).toBe('PROBE_BLOCKED_BY_AUTH');
    expect(order.slice(0, 8).map((p) => decodeURIComponent(p.split('/').slice(-1)[0]!))).toEqual([
      'sklearn-iris',
      'pods?labelSelector=serving.kubeflow.org/inferenceservice=sklearn-iris&limit=500',
      // the ingress-probes playbook's own: the ingress controller's pods (whose log is the second wave) and the gateway
      'pods?labelSelector=app+in+(networking-istio,net-istio-controller)&limit=500',
      'knative-ingress-gateway',
      'services',
      'revisions',
      'virtualservices',
      'events?limit=500',
    ]);
  });

  it('goes by a hint from an earlier process, checked by a fresh discovery in the same wave', async () => {
    const { sim, kubeConfig, groups } = await cluster('storage-uri-not-found', 400);
    let written: ServedGroups | undefined;
    useDiscoveryHints({ read: (c) => (c === sim.url ? groups : undefined), write: (_c, g) => (written = g) });
    try {
      const report = await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
      expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
      const found = sim.requests.find(isvcGet)!;
      const discovery = sim.requests.find((r) => r.path === '/apis')!;
      expect(discovery.at).toBeLessThan(found.doneAt!);
      expect(
        sim.requests.filter(
          (r) =>
            r.resource === 'pods' && r.query.labelSelector?.startsWith('serving.kubeflow.org/') && r.at < found.doneAt!,
        ),
      ).toHaveLength(1);
      expect(written).toBeDefined();
    } finally {
      useDiscoveryHints(null);
    }
  });

  it('takes a hint answered within five minutes as the process would take its own answer: no discovery', async () => {
    const { sim, kubeConfig, groups } = await cluster('storage-uri-not-found');
    useDiscoveryHints({ read: () => ({ ...groups, answeredAt: Date.now() - 60_000 }), write: () => undefined });
    try {
      const report = await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
      expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
      expect(sim.requests.filter((r) => r.path === '/apis')).toHaveLength(0);
    } finally {
      useDiscoveryHints(null);
    }
  });

  it('asks discovery when a recent hint does not find the InferenceService, and finds it by the fresh answer', async () => {
    const { sim, kubeConfig, groups } = await cluster('storage-uri-not-found');
    // KServe in the hint; the cluster serves the InferenceService under serving.kubeflow.org
    const wrong: ServedGroups = {
      versions: new Map(
        [...groups.versions].filter(([g]) => g !== 'serving.kubeflow.org').concat([['serving.kserve.io', ['v1beta1']]]),
      ),
      answeredAt: Date.now(),
    };
    useDiscoveryHints({ read: () => wrong, write: () => undefined });
    try {
      const report = await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
      expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
      expect(report.target.apiVersion).toBe('serving.kubeflow.org/v1alpha2');
      expect(sim.requests.filter((r) => r.path === '/apis')).toHaveLength(1);
    } finally {
      useDiscoveryHints(null);
    }
  });

  it('starts again by the fresh answer when the hint is wrong, and loses nothing', async () => {
    const { kubeConfig, groups } = await cluster('storage-uri-not-found');
    const wrong: ServedGroups = {
      versions: new Map(
        [...groups.versions]
          .filter(([g]) => g !== 'serving.kubeflow.org' && g !== 'serving.knative.dev')
          .concat([['serving.kserve.io', ['v1beta1']]]),
      ),
    };
    useDiscoveryHints({ read: () => wrong, write: () => undefined });
    try {
      const report = await diagnose(kubeConfig, { namespace: 'default', name: 'sklearn-iris' });
      expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
      expect(report.target.apiVersion).toBe('serving.kubeflow.org/v1alpha2');
    } finally {
      useDiscoveryHints(null);
    }
  });
});

/** Dependent waves as the bench counts them: a request is in wave k+1 when it arrived after a request of wave k was answered. */
function waves(requests: RecordedRequest[]): number {
  const sorted = [...requests].sort((a, b) => a.at - b.at);
  const wave: number[] = [];
  for (const [i, r] of sorted.entries())
    wave.push(Math.max(1, ...sorted.slice(0, i).map((q, j) => (q.doneAt! <= r.at ? wave[j]! + 1 : 1))));
  return Math.max(0, ...wave);
}

/**
 * Scenario, namespace, name, the request budget with discovery known (the bot, a recent CLI hint),
 * and the CLI's with a hint older than five minutes (checked by discovery in the first wave).
 */
const SCENARIOS = [
  ['storage-uri-not-found', 'default', 'sklearn-iris', 10, 10],
  ['oom-exit-code-137', 'default', 'sklearn-iris', 10, 10],
  // eight reads in the first wave; the crashed server's log and the storage-initializer's (what it laid out), together
  ['crashloop-model-file-missing', 'default', 'sklearn-iris', 10, 11],
  // eight reads in the first wave; the second: the model server's log, the ingress controller's log and, while the
  // ingress is stuck on a Knative without best-effort probes, the external authorizer on the gateway (EnvoyFilters)
  ['ingress-auth-302-uaex', 'ml-team', 'sklearn-iris', 11, 12],
  ['image-pull-backoff', 'fraud-detection', 'fraud-predictor', 10, 10],
] as const;
const settings = { maxMemoryBytes: 16 * 1024 ** 3, knativeNamespace: 'knative-serving' };

/**
 * Answers slow enough that a first wave sent together arrives before any answer, on a loaded machine
 * too: at 40 ms a CI run busy with other test files once sent the last of a first wave after an
 * answer had come, and counted 3 waves.
 */
const WAVE_LATENCY_MS = 250;

describe('within their request budgets and 2 waves', () => {
  it.each(SCENARIOS)(
    '%s, as the CLI runs it: the discovery hint of an earlier process, recent or checked in the first wave',
    async (scenario, namespace, name, knownBudget, olderHintBudget) => {
      for (const [answeredAt, budget] of [
        [Date.now(), knownBudget],
        [undefined, olderHintBudget],
      ] as const) {
        const { sim, kubeConfig, groups } = await cluster(scenario, WAVE_LATENCY_MS);
        useDiscoveryHints({
          read: (c) => (c === sim.url ? { ...groups, ...(answeredAt ? { answeredAt } : {}) } : undefined),
          write: () => undefined,
        });
        try {
          const report = await cliDiagnose(kubeConfig, { namespace, name });
          expect(report.rootCause).not.toBeNull();
          expect(report.stats.apiRequests).toBe(sim.requests.length);
          expect(sim.requests.length).toBeLessThanOrEqual(budget);
          expect(waves(sim.requests)).toBeLessThanOrEqual(2);
        } finally {
          useDiscoveryHints(null);
        }
      }
    },
  );

  it.each(SCENARIOS)(
    '%s, as the bot runs it: discovery remembered, and the remediations it offers planned right after',
    async (scenario, namespace, name, budget, _olderHintBudget) => {
      const { sim, kubeConfig, groups } = await cluster(scenario, WAVE_LATENCY_MS);
      rememberServedGroups(sim.url, groups);
      const report = await diagnose(kubeConfig, { namespace, name });
      expect(report.rootCause).not.toBeNull();
      const ctx: ActionContext = {
        writer: new ClusterWriter(makeKubeClients(kubeConfig)),
        target: { namespace, name },
        settings,
        seen: answeredReadsOf(report)!,
      };
      for (const f of offerable(report)) {
        const action = actionById(f.remediation!.action)!;
        await action.plan(ctx, action.params.parse(f.remediation!.params ?? {}));
      }
      expect(sim.requests.length).toBeLessThanOrEqual(budget);
      expect(waves(sim.requests)).toBeLessThanOrEqual(2);
    },
  );
});

describe('a remediation offered right after the diagnosis', () => {
  it.each([
    ['restart-pods', 'crashloop-import-error', 'delete', 'pods', 'growth-ml/churn-predictor'],
    ['raise-memory-limit', 'oom-exit-code-137', 'patch', 'inferenceservices', 'default/sklearn-iris'],
  ])(
    '%s plans with what the diagnosis read, without a request; its dry run waits for the approval',
    async (id, scenario, verb, resource, namespaced) => {
      const { sim, kubeConfig } = await cluster(scenario);
      const [namespace = '', name = ''] = namespaced.split('/');
      const target = { namespace, name };
      const report = await diagnose(kubeConfig, target);
      const offered = report.findings.find((f) => f.remediation?.action === id)!;
      expect(offered).toBeDefined();
      const seen = answeredReadsOf(report);
      expect(seen).toBeDefined();
      const before = sim.requests.length;
      const ctx: ActionContext = {
        writer: new ClusterWriter(makeKubeClients(kubeConfig)),
        target,
        settings,
        seen: seen!,
      };
      const action = actionById(id)!;
      const plan = await action.plan(ctx, action.params.parse(offered.remediation!.params ?? {}));
      expect(plan.changes.length).toBeGreaterThan(0);
      expect(plan.checkedBy).toBe('reads');
      expect(sim.requests.slice(before)).toEqual([]);
      // on approval: the planned write with dryRun=All, and the API server's answer is the change the proposal shows
      const changes = await action.dryRun({ writer: ctx.writer, target, settings }, plan);
      expect(changes).toEqual(plan.changes);
      const dry = sim.requests.slice(before).filter((r) => r.query.dryRun !== undefined);
      expect(dry.map((r) => `${r.verb} ${r.resource} dryRun=${r.query.dryRun}`)).toEqual([
        `${verb} ${resource} dryRun=All`,
      ]);
      expect(sim.requests.slice(before).filter((r) => r.verb !== 'get' && r.query.dryRun === undefined)).toEqual([]);
    },
  );
});

/** LLMInferenceService scenarios (KServe 0.17-0.20): the name found as one, its children read in the same two waves. */
const LLM_SCENARIOS = [
  ['llm-kv-cache-smaller-than-max-model-len', 'llm', 'qwen3-coder', 'MODEL_LOAD_FAILED'],
  ['llm-gke-gateway-refuses-route-timeouts-kserve-0-19', 'models', 'gemma-3-12b', 'LLM_ROUTE_NOT_ACCEPTED'],
  ['llm-epp-crashloop-pods-forbidden-kserve-0-18', 'inference', 'mistral-7b', 'LLM_INFERENCE_POOL_NOT_READY'],
  ['llm-multinode-worker-still-pulling-group-short-kserve-0-19', 'llm', 'llama-70b-mn', 'LLM_WORKER_GROUP_SHORT'],
  ['llm-quickstart-template-config-not-installed', 'default', 'distilgpt2-vllm-cpu', 'LLM_CONFIG_MERGE_FAILED'],
  // a routing group member: the namespace's LLMInferenceServices are one more list, in the second wave
  ['llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20', 'llm', 'qwen3-coder-v2', 'MODEL_LOAD_FAILED'],
] as const;

const LLM_LATENCY_MS = WAVE_LATENCY_MS;

describe('an LLMInferenceService within 12 requests and 2 waves', () => {
  it.each(LLM_SCENARIOS)(
    '%s, as the bot runs it (discovery remembered), by name alone and with --kind llmisvc',
    async (scenario, namespace, name, rootCause) => {
      for (const kind of [undefined, 'llmisvc'] as const) {
        const { sim, kubeConfig, groups } = await cluster(scenario, LLM_LATENCY_MS);
        rememberServedGroups(sim.url, groups);
        const report = await diagnose(kubeConfig, { namespace, name, ...(kind ? { kind } : {}) });
        expect(report.rootCause).toBe(rootCause);
        expect(report.target.kind).toBe('llmisvc');
        expect(report.stats.apiRequests).toBe(sim.requests.length);
        expect(sim.requests.length).toBeLessThanOrEqual(12);
        expect(waves(sim.requests)).toBeLessThanOrEqual(2);
      }
    },
  );

  it('as the CLI runs it with a recent discovery hint: the same budget', async () => {
    const [scenario, namespace, name, rootCause] = LLM_SCENARIOS[0];
    const { sim, kubeConfig, groups } = await cluster(scenario, LLM_LATENCY_MS);
    useDiscoveryHints({ read: () => ({ ...groups, answeredAt: Date.now() }), write: () => undefined });
    try {
      const report = await cliDiagnose(kubeConfig, { namespace, name });
      expect(report.rootCause).toBe(rootCause);
      expect(sim.requests.length).toBeLessThanOrEqual(12);
      expect(waves(sim.requests)).toBeLessThanOrEqual(2);
    } finally {
      useDiscoveryHints(null);
    }
  });

  it('an InferenceService diagnosis on a KServe 0.20 cluster asks for an LLMInferenceService of the name only in its first wave', async () => {
    const { sim, kubeConfig, groups } = await cluster('llm-healthy-kserve-0-20', LLM_LATENCY_MS);
    rememberServedGroups(sim.url, groups);
    const report = await diagnose(kubeConfig, { namespace: 'llm', name: 'qwen', kind: 'isvc' });
    expect(report.rootCause).toBe('ISVC_NOT_FOUND');
    expect(sim.requests.filter((r) => r.resource === 'llminferenceservices')).toHaveLength(0);
  });
});
