/**
 * The model server workloads of an LLMInferenceService: the Deployments `NAME-kserve` /
 * `NAME-kserve-prefill` (single node) and the LeaderWorkerSets `NAME-kserve-mn` /
 * `NAME-kserve-mn-prefill` (multi-node: a group of a leader and its workers serves only when every
 * pod of it is ready), and their pods (found by the llmisvc labels). A pod that cannot be scheduled,
 * pull its image, stay in memory or start says so; a crashing model server's log (the previous
 * instance's, one log per diagnosis) is matched against the signature catalog, and the next step
 * names the LLMInferenceService's own field (spec.template.containers, args). A group short of pods
 * is named with the pods it lacks.
 *
 * RBAC: list pods, get pods/log, list deployments.apps, get leaderworkersets.leaderworkerset.x-k8s.io.
 * Emits: LLM_WORKLOAD_NOT_READY, LLM_WORKER_GROUP_SHORT, POD_UNSCHEDULABLE, IMAGE_PULL_FAILED,
 * OOM_KILLED, CRASH_LOOP, MODEL_LOAD_FAILED, LLMISVC_NOT_READY (a worker condition the LeaderWorkerSet contradicts).
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import {
  LLM_KIND,
  conditionsOf,
  conditionText,
  configsUnmerged,
  deploymentReplicas,
  llmDeployments,
  llmPods,
  llmSpecOf,
} from '../src/diagnosis/llm-objects.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { lastWord, signatureFindings } from '../src/diagnosis/signature-findings.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import type { FindingCode } from '../src/findings/catalog.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';

const SCHEDULER = 'llminferenceservice-router-scheduler';
const GROUP_INDEX = 'leaderworkerset.sigs.k8s.io/group-index';
const GROUP_SIZE = 'leaderworkerset.sigs.k8s.io/size';
const WORKER_INDEX = 'leaderworkerset.sigs.k8s.io/worker-index';
/** What a pod-level cause explains of the service's state. */
const EXPLAINS: FindingCode[] = ['LLM_WORKLOAD_NOT_READY', 'LLM_WORKER_GROUP_SHORT', 'LLMISVC_NOT_READY'];

export const llmWorkloads: Playbook = {
  id: 'llm-workloads',
  kind: 'llmisvc',
  title: "The LLMInferenceService's model server workloads",
  emits: [
    'LLM_WORKLOAD_NOT_READY',
    'LLM_WORKER_GROUP_SHORT',
    'POD_UNSCHEDULABLE',
    'IMAGE_PULL_FAILED',
    'OOM_KILLED',
    'CRASH_LOOP',
    'MODEL_LOAD_FAILED',
    'LLMISVC_NOT_READY',
  ],
  firstWave: (reader, target) => [
    llmPods(reader, target.namespace, target.name),
    llmDeployments(reader, target.namespace, target.name),
  ],
  async run(ctx) {
    const { namespace, name } = ctx.target;
    if (configsUnmerged(ctx)) return []; // the controller stopped before creating them: llm-conditions says why
    const spec = llmSpecOf(ctx);
    const [pods, deployments] = await Promise.all([
      llmPods(ctx.reader, namespace, name),
      llmDeployments(ctx.reader, namespace, name),
    ]);
    const workloadPods = pods.filter((p) => p.metadata?.labels?.['app.kubernetes.io/component'] !== SCHEDULER);
    const lwsName = `${name}-kserve-mn`;
    // the LeaderWorkerSet is read only when its pods do not already show a group short of pods
    const short = spec.multiNode ? shortGroups(workloadPods, spec.replicas) : [];
    const [podFindings, lws] = await Promise.all([
      podLevelFindings(ctx, workloadPods),
      spec.multiNode && short.length === 0
        ? ctx.reader.readKind('LeaderWorkerSet', namespace, lwsName).catch(forbiddenAsNull)
        : null,
    ]);
    const findings: Finding[] = [...podFindings];
    const subCondition = conditionsOf(ctx.target.isvc).find(
      (c) =>
        ['MainWorkloadReady', 'WorkerWorkloadReady', 'PrefillWorkloadReady', 'PrefillWorkerWorkloadReady'].includes(
          c.type,
        ) && c.status === 'False',
    );
    if (spec.multiNode && lws && subCondition?.type === 'WorkerWorkloadReady' && lwsAllReady(lws)) {
      // the objects say every group is ready: the condition is the controller's stale reading
      findings.push(staleWorkerCondition(ctx, lwsName, lws, subCondition));
      return findings;
    }
    if (spec.multiNode) {
      if (short.length > 0 || (lws && lwsShort(lws)))
        findings.push(groupFinding(ctx, lwsName, lws, short, spec.replicas, subCondition));
    }
    for (const d of deployments) {
      if (d.metadata.labels?.['app.kubernetes.io/component'] === SCHEDULER) continue;
      const { wanted, available } = deploymentReplicas(d);
      if (available >= wanted && !subCondition) continue;
      if (available >= wanted && spec.multiNode) continue;
      const ref = refOf('Deployment', namespace, d.metadata.name);
      const own = workloadPods.filter((p) => (p.metadata?.name ?? '').startsWith(`${d.metadata.name}-`));
      findings.push(
        finding('LLM_WORKLOAD_NOT_READY', {
          subject: refOf(LLM_KIND, namespace, name),
          title: `Workload ${d.metadata.name} has ${available} of ${wanted} replicas available`,
          evidence: [
            { kind: 'field', ref, text: `replicas ${wanted}, availableReplicas ${available}` },
            ...(subCondition
              ? [
                  {
                    kind: 'condition' as const,
                    ref: refOf(LLM_KIND, namespace, name),
                    text: conditionText(subCondition),
                  },
                ]
              : []),
            ...own.slice(0, 4).map((p) => podStateEvidence(namespace, p)),
          ],
        }),
      );
    }
    return findings;
  },
};

const forbiddenAsNull = (error: unknown) => {
  if (error instanceof ForbiddenError) return null;
  throw error;
};

function podStateEvidence(namespace: string, p: V1Pod): Evidence {
  const statuses = [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])];
  const state = statuses
    .map((s) => {
      const why = s.state?.waiting?.reason ?? s.state?.terminated?.reason ?? (s.ready ? 'ready' : 'running, not ready');
      return `${s.name}: ${why}${s.restartCount ? ` (${s.restartCount} restarts)` : ''}`;
    })
    .join('; ');
  return {
    kind: 'field',
    ref: refOf('Pod', namespace, p.metadata?.name ?? '?'),
    text: `${p.status?.phase ?? 'Unknown'}${state ? `: ${state}` : ''}`,
  };
}

/** Groups (by LeaderWorkerSet group index) missing pods or with pods not ready. */
interface ShortGroup {
  index: string;
  size: number;
  pods: V1Pod[];
  ready: number;
}

function shortGroups(pods: readonly V1Pod[], replicas: number): ShortGroup[] {
  const groups = new Map<string, V1Pod[]>();
  for (const p of pods) {
    const index = p.metadata?.labels?.[GROUP_INDEX];
    if (index !== undefined) groups.set(index, [...(groups.get(index) ?? []), p]);
  }
  const size = Math.max(
    1,
    ...pods.map((p) => Number(p.metadata?.annotations?.[GROUP_SIZE] ?? p.metadata?.labels?.[GROUP_SIZE] ?? 0)),
  );
  const out: ShortGroup[] = [];
  for (let i = 0; i < Math.max(replicas, groups.size); i += 1) {
    const members = groups.get(String(i)) ?? [];
    const ready = members.filter(isPodReady).length;
    if (members.length < size || ready < size) out.push({ index: String(i), size, pods: members, ready });
  }
  return out;
}

function lwsShort(lws: { spec?: Record<string, unknown>; status?: unknown }): boolean {
  const replicas = typeof lws.spec?.replicas === 'number' ? lws.spec.replicas : 1;
  const ready = (lws.status as { readyReplicas?: unknown } | undefined)?.readyReplicas;
  return typeof ready === 'number' && ready < replicas;
}

function lwsAllReady(lws: { spec?: Record<string, unknown>; status?: unknown }): boolean {
  const replicas = typeof lws.spec?.replicas === 'number' ? lws.spec.replicas : 1;
  const status = (lws.status ?? {}) as { readyReplicas?: unknown; conditions?: unknown };
  const available = Array.isArray(status.conditions)
    ? status.conditions.some(
        (c) => (c as { type?: unknown }).type === 'Available' && (c as { status?: unknown }).status === 'True',
      )
    : false;
  return available && typeof status.readyReplicas === 'number' && status.readyReplicas >= replicas;
}

function staleWorkerCondition(
  ctx: DiagnosisContext,
  lwsName: string,
  lws: { spec?: Record<string, unknown>; status?: unknown },
  condition: { type: string; status?: string; reason?: string; message?: string },
): Finding {
  const { namespace, name } = ctx.target;
  const subject = refOf(LLM_KIND, namespace, name);
  const ref = refOf('LeaderWorkerSet', namespace, lwsName);
  const status = (lws.status ?? {}) as { readyReplicas?: unknown; conditions?: unknown };
  const available = (Array.isArray(status.conditions) ? status.conditions : []).find(
    (c) => (c as { type?: unknown }).type === 'Available',
  ) as { type: string; status?: string; reason?: string; message?: string } | undefined;
  return finding('LLMISVC_NOT_READY', {
    subject,
    title: `${conditionText(condition)}, but LeaderWorkerSet ${lwsName} has all ${String(status.readyReplicas)} group(s) ready: the llmisvc controller has not re-read it since`,
    evidence: [
      { kind: 'condition', ref: subject, text: conditionText(condition) },
      ...(available ? [{ kind: 'condition' as const, ref, text: conditionText(available) }] : []),
      {
        kind: 'field',
        ref,
        text: `replicas ${String(lws.spec?.replicas ?? 1)}, readyReplicas ${String(status.readyReplicas)}`,
      },
    ],
    next: `the workload serves; the condition is stale (the controller does not watch LeaderWorkerSet status: kserve/kserve#6043): kubectl annotate llminferenceservice ${name} -n ${namespace} serving.kserve.io/reconcile-at="$(date +%s)" --overwrite to make it reconcile and re-read ${lwsName}, and upgrade KServe when the fix is released`,
  });
}

function isPodReady(p: V1Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function groupFinding(
  ctx: DiagnosisContext,
  lwsName: string,
  lws: { spec?: Record<string, unknown>; status?: unknown } | null,
  short: ShortGroup[],
  replicas: number,
  condition: { type: string; status?: string; reason?: string; message?: string } | undefined,
): Finding {
  const { namespace, name } = ctx.target;
  const ref = refOf('LeaderWorkerSet', namespace, lwsName);
  const first = short[0];
  const missing = first ? first.size - first.pods.length : 0;
  const worstPod = first?.pods.find((p) => p.status?.phase === 'Pending') ?? first?.pods.find((p) => !isPodReady(p));
  // a member that has not started holds the whole group: the others' restarts (vLLM timing out waiting for it) follow from it
  const notStarted = short.some((g) => g.pods.some((p) => p.status?.phase === 'Pending'));
  const lwsStatus = (lws?.status ?? {}) as { readyReplicas?: unknown; replicas?: unknown };
  const title = first
    ? `Group ${first.index} of ${lwsName} has ${first.ready} of ${first.size} pods ready${missing > 0 ? ` (${missing} missing)` : ''}: a group serves only when its leader and every worker are ready`
    : `${lwsName} has ${String(lwsStatus.readyReplicas ?? 0)} of ${replicas} groups ready`;
  return finding('LLM_WORKER_GROUP_SHORT', {
    subject: refOf(LLM_KIND, namespace, name),
    title,
    ...(notStarted ? { explains: ['CRASH_LOOP', 'READINESS_PROBE_FAILING'] as FindingCode[] } : {}),
    evidence: [
      ...(lws
        ? [
            {
              kind: 'field' as const,
              ref,
              text: `replicas ${String(lws.spec?.replicas ?? replicas)}, size ${String((lws.spec?.leaderWorkerTemplate as { size?: unknown } | undefined)?.size ?? first?.size ?? '?')}, readyReplicas ${String(lwsStatus.readyReplicas ?? 0)}`,
            },
          ]
        : []),
      ...(condition
        ? [{ kind: 'condition' as const, ref: refOf(LLM_KIND, namespace, name), text: conditionText(condition) }]
        : []),
      ...short.slice(0, 3).flatMap((g) => [
        {
          kind: 'field' as const,
          ref,
          text: `group ${g.index}: ${g.pods.length} of ${g.size} pods exist, ${g.ready} ready (${g.pods.map((p) => `${p.metadata?.labels?.[WORKER_INDEX] === '0' ? 'leader' : 'worker'} ${p.metadata?.name}`).join(', ') || 'none'})`,
        },
        ...g.pods.filter((p) => !isPodReady(p)).map((p) => podStateEvidence(namespace, p)),
      ]),
    ],
    next: worstPod
      ? `kubectl describe pod ${worstPod.metadata?.name} -n ${namespace}: get this ${worstPod.metadata?.labels?.[WORKER_INDEX] === '0' ? 'leader' : 'worker'} pod of group ${first?.index} running and ready (its events say what holds it), or lower spec.parallelism of llminferenceservice ${name} so a group needs fewer pods`
      : `kubectl get pods -n ${namespace} -l leaderworkerset.sigs.k8s.io/name=${lwsName},leaderworkerset.sigs.k8s.io/group-index=${first?.index ?? 0}: the group lacks ${missing} pod(s); kubectl describe leaderworkerset ${lwsName} -n ${namespace} says why they are not created`,
  });
}

/** Pod-level causes: unschedulable, image pull, OOM, a crash (its log read once, through the signature catalog). */
async function podLevelFindings(ctx: DiagnosisContext, pods: readonly V1Pod[]): Promise<Finding[]> {
  const { namespace, name } = ctx.target;
  const out: Finding[] = [];
  let crashed: { pod: V1Pod; status: V1ContainerStatus; init: boolean } | undefined;
  for (const p of pods) {
    const podName = p.metadata?.name ?? '?';
    const subject = refOf('Pod', namespace, podName);
    const unschedulable = (p.status?.conditions ?? []).find(
      (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
    );
    if (unschedulable && !out.some((f) => f.code === 'POD_UNSCHEDULABLE')) {
      out.push(
        finding('POD_UNSCHEDULABLE', {
          subject,
          title: `Pod ${podName} cannot be scheduled: ${unschedulable.message ?? 'Unschedulable'}`,
          evidence: [
            {
              kind: 'condition',
              ref: subject,
              text: `PodScheduled=False (Unschedulable): ${unschedulable.message ?? ''}`,
            },
          ],
          explains: EXPLAINS,
          next: `${schedulingFix(unschedulable.message ?? '', name, namespace)}`,
        }),
      );
    }
    const all = [
      ...(p.status?.initContainerStatuses ?? []).map((s) => ({ s, init: true })),
      ...(p.status?.containerStatuses ?? []).map((s) => ({ s, init: false })),
    ];
    for (const { s, init } of all) {
      const waiting = s.state?.waiting;
      if (
        (waiting?.reason === 'ImagePullBackOff' || waiting?.reason === 'ErrImagePull') &&
        !out.some((f) => f.code === 'IMAGE_PULL_FAILED')
      ) {
        out.push(
          finding('IMAGE_PULL_FAILED', {
            subject,
            title: `Image ${s.image} of container ${s.name} cannot be pulled`,
            evidence: [{ kind: 'field', ref: subject, text: `${s.name}: ${waiting.reason}: ${waiting.message ?? ''}` }],
            explains: EXPLAINS,
            next: `kubectl edit llminferenceservice ${name} -n ${namespace}: set the image of container ${s.name} in spec.template.containers to one that exists (${s.image} cannot be pulled), or add its registry's pull secret to spec.template.imagePullSecrets`,
          }),
        );
      }
      const last = s.lastState?.terminated ?? s.state?.terminated;
      if (last?.reason === 'OOMKilled' && !out.some((f) => f.code === 'OOM_KILLED')) {
        out.push(
          finding('OOM_KILLED', {
            subject,
            title: `Container ${s.name} was killed for memory (OOMKilled, exit code ${last.exitCode ?? 137})`,
            evidence: [
              {
                kind: 'field',
                ref: subject,
                text: `${s.name}: lastState terminated OOMKilled, ${s.restartCount} restarts`,
              },
            ],
            explains: EXPLAINS,
            next: `kubectl edit llminferenceservice ${name} -n ${namespace}: raise spec.template.containers[name=${s.name}].resources.limits.memory (the model server's host memory while loading)`,
          }),
        );
        continue;
      }
      const crashing =
        waiting?.reason === 'CrashLoopBackOff' ||
        (last && last.exitCode !== undefined && last.exitCode !== 0 && last.reason !== 'OOMKilled');
      if (crashing && !crashed) crashed = { pod: p, status: s, init };
    }
  }
  if (crashed) out.push(...(await crashFindings(ctx, pods, crashed)));
  return out;
}

function schedulingFix(message: string, name: string, namespace: string): string {
  if (/nvidia\.com\/gpu|gpu/i.test(message))
    return `kubectl describe nodes | grep -A5 Allocatable: no node has the GPUs a pod of llminferenceservice ${name} asks for; lower spec.template.containers[name=main].resources.limits["nvidia.com/gpu"] (and the parallelism) of llminferenceservice ${name} -n ${namespace}, or add GPU nodes`;
  if (/taint/i.test(message))
    return `kubectl edit llminferenceservice ${name} -n ${namespace}: add the toleration for the taint the scheduler names to spec.template.tolerations (and spec.worker.tolerations for workers)`;
  return `kubectl describe nodes: free or add what the scheduler says is missing, or lower the requests in spec.template.containers of llminferenceservice ${name} -n ${namespace}`;
}

async function crashFindings(
  ctx: DiagnosisContext,
  pods: readonly V1Pod[],
  crashed: { pod: V1Pod; status: V1ContainerStatus; init: boolean },
): Promise<Finding[]> {
  const { namespace, name } = ctx.target;
  const podName = crashed.pod.metadata?.name ?? '?';
  const container = crashed.status.name;
  const previous = crashed.status.restartCount > 0 && !crashed.status.state?.terminated;
  let text: string | null = null;
  try {
    text = await ctx.reader.podLog(namespace, podName, container, { previous });
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
  }
  const lines = splitLogLines(text ?? '');
  const subject = refOf('Pod', namespace, podName);
  const where = crashed.init && /storage/.test(container) ? ('storage-initializer' as const) : ('model-log' as const);
  const { findings } = signatureFindings(
    ctx,
    { where, ref: subject, kind: 'log', lines, container, previous },
    { subject, pod: podName, explains: [...EXPLAINS, 'CRASH_LOOP'] },
    versionFactsOf(ctx, pods),
    lastWord,
  );
  const exitCode = crashed.status.lastState?.terminated?.exitCode ?? crashed.status.state?.terminated?.exitCode;
  const crash = finding('CRASH_LOOP', {
    subject,
    title: `Container ${container} of ${podName} exits${exitCode !== undefined ? ` with code ${exitCode}` : ''} (${crashed.status.restartCount} restarts)`,
    evidence: [
      {
        kind: 'field',
        ref: subject,
        text: `${container}: ${crashed.status.state?.waiting?.reason ?? 'terminated'}, ${crashed.status.restartCount} restarts`,
      },
      ...(findings.length === 0 && lines.length
        ? [
            {
              kind: 'log' as const,
              ref: subject,
              container,
              previous,
              excerpt: lines.slice(-12),
              lineNumbers: lines.slice(-12).map((_, i) => lines.length - Math.min(12, lines.length) + i + 1),
              truncated: lines.length > 12,
            },
          ]
        : []),
    ],
    explains: EXPLAINS,
    next: `kubectl logs ${podName} -n ${namespace} -c ${container}${previous ? ' --previous' : ''}: fix what the model server reports before it exits, in spec.template.containers[name=${container}] of llminferenceservice ${name}`,
  });
  return [...findings.map((f) => ({ ...f, next: llmNext(f, name, namespace, lines) })), crash];
}

/** A signature's next step, pointed at the LLMInferenceService's own fields (and the numbers its line gives). */
function llmNext(f: Finding, name: string, namespace: string, lines: readonly string[]): string {
  const line = f.evidence.flatMap((e) => e.excerpt ?? []).join('\n') || lines.join('\n');
  const kv = /max seq len \((\d+)\)[^\n]*KV cache \((\d+)\)/.exec(line);
  const kv1 = /max seq len \((\d+)\)[^\n]*estimated maximum model length is (\d+)/.exec(line);
  const edit = `kubectl edit llminferenceservice ${name} -n ${namespace}`;
  if (kv1)
    return `${edit}: add --max-model-len=${kv1[2]} (or less) to spec.template.containers[name=main].args: the model asks for ${kv1[1]} tokens of context and vLLM estimates the GPU's KV cache holds ${kv1[2]}; or raise --gpu-memory-utilization, or give it more GPU memory`;
  if (kv)
    return `${edit}: add --max-model-len=${kv[2]} (or less) to spec.template.containers[name=main].args: the model asks for ${kv[1]} tokens of context and the GPU's KV cache holds ${kv[2]}; or raise --gpu-memory-utilization, or give it more GPU memory`;
  const base = (f.next ?? '')
    .replace(
      /in the model server container$/,
      `in spec.template.containers[name=main].env of llminferenceservice ${name} -n ${namespace}`,
    )
    .replace(/kubectl edit inferenceservice \S+ -n \S+/g, edit)
    .replace(/the predictor's args|the predictor's container args/g, 'spec.template.containers[name=main].args')
    .replace(/spec\.predictor(?:\.[\w[\]=-]+)*\.(\w+)/g, 'spec.template.containers[name=main].$1');
  return base.includes('llminferenceservice') || base.startsWith('kubectl ') ? base : `${edit}: ${base}`;
}
