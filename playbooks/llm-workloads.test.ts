/**
 * llm-workloads on the model server Deployment and LeaderWorkerSet pods of an LLMInferenceService:
 * a pod no node has GPUs for (said on the pod, with the workload's replicas on the service); an
 * image that cannot be pulled and a container killed for memory; a crashing model server, its
 * previous log read (a line the signature catalog knows, with the next step on the service's own
 * args, and a line it does not, shown as the log's tail); a multi-node group short of a ready worker;
 * WorkerWorkloadReady=False while the LeaderWorkerSet has every group ready (stale). A healthy
 * workload is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { type Cond, condition } from '../test/support/condition.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { llmWorkloads } from './llm-workloads.js';

const NS = 'llm';
const NAME = 'llama';
const LABELS = {
  'app.kubernetes.io/name': NAME,
  'app.kubernetes.io/part-of': 'llminferenceservice',
  'kserve.io/component': 'workload',
};
const TARGET = { namespace: NS, name: NAME };
const SUBJECT = 'LLMInferenceService llm/llama';
const POD = 'llama-kserve-6c9f7d8b5-x2k4p';

const c = condition;

function llmisvc(conditions: Cond[] = [], multiNode = false) {
  return {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    metadata: { name: NAME, namespace: NS, generation: 1 },
    spec: {
      model: { uri: 'hf://meta-llama/Llama-3.1-8B-Instruct', name: 'llama' },
      replicas: 1,
      ...(multiNode ? { parallelism: { tensor: 1, data: 2 }, worker: {} } : {}),
      router: { route: {}, gateway: {} },
    },
    status: { observedGeneration: 1, conditions: [c('PresetsCombined', 'True'), ...conditions] },
  };
}

function deployment(available: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${NAME}-kserve`, namespace: NS, generation: 1, labels: LABELS },
    spec: {
      replicas: 1,
      selector: { matchLabels: LABELS },
      template: {
        metadata: { labels: LABELS },
        spec: { containers: [{ name: 'main', image: 'vllm/vllm-openai:v0.8.5' }] },
      },
    },
    status: { observedGeneration: 1, replicas: 1, availableReplicas: available, readyReplicas: available },
  };
}

interface PodSpec {
  name?: string;
  phase?: string;
  ready?: boolean;
  conditions?: Cond[];
  container?: Record<string, unknown>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function pod(p: PodSpec = {}) {
  const ready = p.ready ?? true;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name ?? POD,
      namespace: NS,
      labels: { ...LABELS, ...p.labels },
      ...(p.annotations ? { annotations: p.annotations } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'vllm/vllm-openai:v0.8.5' }] },
    status: {
      phase: p.phase ?? 'Running',
      conditions: p.conditions ?? [c('PodScheduled', 'True'), c('Ready', ready ? 'True' : 'False')],
      ...(p.phase === 'Pending' && p.conditions
        ? {}
        : {
            containerStatuses: [
              {
                name: 'main',
                image: 'vllm/vllm-openai:v0.8.5',
                ready,
                restartCount: 0,
                state: ready
                  ? { running: { startedAt: '2026-08-20T10:02:00Z' } }
                  : { waiting: { reason: 'ContainerCreating' } },
                ...p.container,
              },
            ],
          }),
    },
  };
}

const crashing = (restarts = 4) =>
  pod({
    ready: false,
    container: {
      restartCount: restarts,
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting failed container=main' } },
    },
  });

describe('llm-workloads', () => {
  it('a pod no node has GPUs for: unschedulable on the pod, the workload short on the service', async () => {
    const message = '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.';
    const { report } = await runPlaybook(
      llmWorkloads,
      [
        llmisvc([c('MainWorkloadReady', 'False', 'MinimumReplicasUnavailable')]),
        deployment(0),
        pod({ phase: 'Pending', conditions: [c('PodScheduled', 'False', 'Unschedulable', message)] }),
      ],
      TARGET,
    );
    const unschedulable = report.findings.find((f) => f.code === 'POD_UNSCHEDULABLE')!;
    expect(unschedulable).toMatchObject({ severity: 'error', subject: `Pod llm/${POD}` });
    expect(unschedulable.evidence[0]!.text).toBe(`PodScheduled=False (Unschedulable): ${message}`);
    expect(unschedulable.next).toContain('nvidia.com/gpu');
    const workload = report.findings.find((f) => f.code === 'LLM_WORKLOAD_NOT_READY')!;
    expect(workload).toMatchObject({ subject: SUBJECT });
    expect(workload.evidence.map((e) => e.text)).toEqual([
      'replicas 1, availableReplicas 0',
      'MainWorkloadReady=False (MinimumReplicasUnavailable)',
      'Pending',
    ]);
  });

  it('an image that cannot be pulled, and a container killed for memory: the container state that says so', async () => {
    const pull = await runPlaybook(
      llmWorkloads,
      [
        llmisvc(),
        deployment(0),
        pod({
          ready: false,
          container: {
            state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "vllm:nope"' } },
          },
        }),
      ],
      TARGET,
    );
    const f = pull.report.findings.find((x) => x.code === 'IMAGE_PULL_FAILED')!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod llm/${POD}` });
    expect(f.evidence[0]!.text).toBe('main: ImagePullBackOff: Back-off pulling image "vllm:nope"');
    expect(f.next).toContain('spec.template.containers');

    const oom = await runPlaybook(
      llmWorkloads,
      [
        llmisvc(),
        deployment(0),
        pod({
          ready: false,
          container: {
            restartCount: 3,
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            state: { running: { startedAt: '2026-08-20T10:05:00Z' } },
          },
        }),
      ],
      TARGET,
    );
    const o = oom.report.findings.find((x) => x.code === 'OOM_KILLED')!;
    expect(o).toMatchObject({ severity: 'error', subject: `Pod llm/${POD}` });
    expect(o.evidence[0]!.text).toBe('main: lastState terminated OOMKilled, 3 restarts');
    expect(oom.codes).not.toContain('CRASH_LOOP');
  });

  it("a crashing model server: a known line of its previous log names the service's args; an unknown one is shown", async () => {
    const kv =
      "ValueError: The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.";
    const known = await runPlaybook(llmWorkloads, [llmisvc(), deployment(0), crashing()], TARGET, {
      logs: { [`${NS}/${POD}/main#previous`]: `INFO Loading weights took 15.2 GiB\n${kv}\n` },
    });
    expect(known.codes).toEqual(expect.arrayContaining(['KV_CACHE_TOO_SMALL', 'CRASH_LOOP']));
    const sig = known.report.findings.find((f) => f.code === 'KV_CACHE_TOO_SMALL')!;
    expect(sig.subject).toBe(`Pod llm/${POD}`);
    expect(sig.next).toContain('--max-model-len=23648');
    expect(sig.next).toContain('spec.template.containers[name=main].args');
    const crash = known.report.findings.find((f) => f.code === 'CRASH_LOOP')!;
    expect(crash.evidence.map((e) => e.kind)).toEqual(['field']); // the signature carries the line

    const unknown = await runPlaybook(llmWorkloads, [llmisvc(), deployment(0), crashing(2)], TARGET, {
      logs: { [`${NS}/${POD}/main#previous`]: 'INFO starting\nsomething went sideways\n' },
    });
    const u = unknown.report.findings.find((f) => f.code === 'CRASH_LOOP')!;
    expect(u).toMatchObject({ severity: 'error', subject: `Pod llm/${POD}` });
    expect(u.evidence).toEqual([
      { kind: 'field', ref: `Pod llm/${POD}`, text: 'main: CrashLoopBackOff, 2 restarts' },
      expect.objectContaining({
        kind: 'log',
        container: 'main',
        previous: true,
        excerpt: ['INFO starting', 'something went sideways'],
        lineNumbers: [1, 2],
      }),
    ]);
  });

  it('a model-load failure the catalog knows, from the previous log of the model server', async () => {
    const { report } = await runPlaybook(llmWorkloads, [llmisvc(), deployment(0), crashing()], TARGET, {
      logs: { [`${NS}/${POD}/main#previous`]: "_pickle.UnpicklingError: invalid load key, '<'.\n" },
    });
    const f = report.findings.find((x) => x.code === 'MODEL_LOAD_FAILED')!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod llm/${POD}` });
    expect(f.evidence.flatMap((e) => e.excerpt ?? [])).toContain("_pickle.UnpicklingError: invalid load key, '<'.");
  });

  it('a multi-node group short of a ready worker; WorkerWorkloadReady=False while every group is ready is stale', async () => {
    const group = (worker: string, ready: boolean) =>
      pod({
        name: worker === '0' ? 'llama-kserve-mn-0' : `llama-kserve-mn-0-${worker}`,
        ready,
        labels: {
          'leaderworkerset.sigs.k8s.io/name': 'llama-kserve-mn',
          'leaderworkerset.sigs.k8s.io/group-index': '0',
          'leaderworkerset.sigs.k8s.io/worker-index': worker,
        },
        annotations: { 'leaderworkerset.sigs.k8s.io/size': '2' },
      });
    const lws = (readyReplicas: number, available: boolean) => ({
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'llama-kserve-mn', namespace: NS, generation: 1, labels: LABELS },
      spec: { replicas: 1, leaderWorkerTemplate: { size: 2 } },
      status: {
        replicas: 1,
        readyReplicas,
        conditions: [c('Available', available ? 'True' : 'False', available ? 'AllGroupsReady' : 'GroupsNotReady')],
      },
    });
    const worker = c('WorkerWorkloadReady', 'False', 'Progressing', 'LWS is progressing');

    const short = await runPlaybook(
      llmWorkloads,
      [llmisvc([worker], true), lws(0, false), group('0', true), group('1', false)],
      TARGET,
    );
    const f = short.report.findings.find((x) => x.code === 'LLM_WORKER_GROUP_SHORT')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence.map((e) => e.text)).toContain(
      'group 0: 2 of 2 pods exist, 1 ready (leader llama-kserve-mn-0, worker llama-kserve-mn-0-1)',
    );
    expect(f.next).toContain('llama-kserve-mn-0-1');

    const stale = await runPlaybook(
      llmWorkloads,
      [llmisvc([worker], true), lws(1, true), group('0', true), group('1', true)],
      TARGET,
    );
    expect(stale.codes).toEqual(['LLMISVC_NOT_READY']);
    const s = stale.report.findings[0]!;
    expect(s).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(s.evidence.map((e) => e.text)).toEqual([
      'WorkerWorkloadReady=False (Progressing): LWS is progressing',
      'Available=True (AllGroupsReady)',
      'replicas 1, readyReplicas 1',
    ]);
  });

  it('leaves alone a workload whose replicas are available and whose pods are ready', async () => {
    const { codes } = await runPlaybook(
      llmWorkloads,
      [llmisvc([c('MainWorkloadReady', 'True')]), deployment(1), pod()],
      TARGET,
    );
    expect(codes.filter((x) => (llmWorkloads.emits as readonly string[]).includes(x))).toEqual([]);
  });
});
