/**
 * Inference Service fails to start / in OOM status (debug guide: "RevisionMissing Error").
 *
 * The model server container (kfserving-container / kserve-container, or a custom one) is killed for
 * memory (OOMKilled, exit code 137), crashes and restarts (CrashLoopBackOff: the traceback is in the
 * previous instance's log), or runs but never passes its readiness probe. The crash log (or the
 * termination message holding its tail) is matched against the signature catalog (`model-log`
 * entries): a missing model file, a model the runtime cannot load, a runtime too old for the model;
 * such a finding explains the crash loop. A missing model file is said with what the
 * storage-initializer laid out in /mnt/models (its log in the same pod, read next to the crash log).
 *
 * CRASH_LOOP offers restart-pods (for after the cause is fixed); OOM_KILLED offers raise-memory-limit;
 * KV_CACHE_TOO_SMALL offers lower-max-model-len (the tokens the KV cache holds, from vLLM's line);
 * GPU_OUT_OF_MEMORY in vLLM's sampler warm-up with --gpu-memory-utilization above its default offers
 * lower-gpu-memory-utilization (an OOM while the weights load offers nothing: more GPUs are the fix);
 * SHM_TOO_SMALL offers raise-shm (a memory-backed /dev/shm; a custom container gets the YAML by hand).
 *
 * RBAC: list pods, get pods/log, list events (list limitranges for the memory cap).
 * An LLM runtime's line names its cause and the fix against the pod: the GPUs allocated, the node
 * (GPU out of memory, KV cache below the context length, no GPU visible, driver older than the
 * image's CUDA, /dev/shm too small for NCCL, tensor-parallel size vs GPUs, dtype, remote code, hub).
 *
 * Emits: OOM_KILLED, CRASH_LOOP, MODEL_FILE_MISSING, MODEL_LOAD_FAILED, RUNTIME_UNSUPPORTED_MODEL, READINESS_PROBE_FAILING,
 * GPU_DRIVER_TOO_OLD, GPU_NOT_VISIBLE, GPU_DTYPE_UNSUPPORTED, SHM_TOO_SMALL, TENSOR_PARALLEL_MISMATCH, KV_CACHE_TOO_SMALL,
 * GPU_OUT_OF_MEMORY, TRUST_REMOTE_CODE_REQUIRED, MODEL_HUB_ACCESS_DENIED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { messageLogEvidence, readContainerLog } from '../src/diagnosis/log-evidence.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, podsOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { gpuMemoryUtilization, samplerWarmupOom } from '../src/changes/gpu-memory-utilization.js';
import { kvCacheTokens } from '../src/changes/max-model-len.js';
import { hiddenByMount } from '../src/diagnosis/hidden-by-mount.js';
import { knativeReleaseOf } from '../src/diagnosis/knative-probes.js';
import { layoutRead, withModelLayout } from '../src/diagnosis/model-layout.js';
import { withLlmRuntimeFixes } from '../src/diagnosis/llm-runtime-fixes.js';
import { signatureFindings, type LineSource } from '../src/diagnosis/signature-findings.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { LLM_RUNTIME_CODES } from '../src/findings/catalog.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { gpuScopeOf } from '../src/kube/pod-gpus.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { containerFailures, isModelContainer, type ContainerFailure } from '../src/kube/pod-status.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';
import { offerFix } from '../src/remediation/actions/index.js';

const IMAGE_PROBLEMS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

export const modelContainer: Playbook = {
  id: 'model-container',
  title: 'Inference Service fails to start',
  emits: [
    'OOM_KILLED',
    'CRASH_LOOP',
    'MODEL_FILE_MISSING',
    'MODEL_LOAD_FAILED',
    'RUNTIME_UNSUPPORTED_MODEL',
    'READINESS_PROBE_FAILING',
    ...LLM_RUNTIME_CODES,
  ],
  async run(ctx) {
    const pods = await podsOf(ctx);
    const seen = new Set<string>();
    const work: Array<Promise<Finding[]>> = [];
    for (const pod of pods) {
      for (const failure of containerFailures(pod)) {
        if (failure.init || !isModelContainer(failure.container) || IMAGE_PROBLEMS.has(failure.reason)) continue;
        const key = `${revisionOfPod(pod) ?? pod.metadata?.name}/${failure.container}/${failure.reason === 'OOMKilled' || failure.exitCode === 137}`;
        if (seen.has(key)) continue;
        seen.add(key);
        work.push(crashFindings(ctx, pod, failure, pods));
      }
    }
    work.push(readinessFindings(ctx, pods));
    return (await Promise.all(work)).flat();
  },
};

async function crashFindings(
  ctx: DiagnosisContext,
  pod: V1Pod,
  failure: ContainerFailure,
  pods: V1Pod[],
): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const name = pod.metadata?.name ?? '?';
  const subject = refOf('Pod', ns, name);
  const component = componentOf(pod.metadata?.labels);
  const revision = revisionOfPod(pod);
  const spec = pod.spec?.containers?.find((c) => c.name === failure.container);
  const limit = spec?.resources?.limits?.memory;
  const state: Evidence = {
    kind: 'field',
    ref: subject,
    container: failure.container,
    text: `${failure.container}: ${failure.reason}${failure.exitCode !== undefined ? `, exit code ${failure.exitCode}` : ''}, ${failure.restarts} restart(s)${limit ? `, memory limit ${limit}` : ''}`,
  };
  if (failure.reason === 'OOMKilled' || failure.exitCode === 137) {
    const remediation = await offerFix('raise-memory-limit', ctx, { component, revision });
    return [
      finding('OOM_KILLED', {
        subject,
        title: `${failure.container} was killed for memory (OOMKilled, exit code 137) with a limit of ${limit ?? 'none'}`,
        evidence: [
          state,
          ...terminatedField(pod, failure.container, subject),
          ...(remediation?.params?.to
            ? [{ kind: 'note' as const, ref: subject, text: `suggested limit: ${String(remediation.params.to)}` }]
            : []),
        ],
        remediation,
        component,
        revision,
      }),
      ...(failure.waiting === 'CrashLoopBackOff'
        ? [
            finding('CRASH_LOOP', {
              subject,
              title: `${failure.container} restarts after being OOMKilled`,
              evidence: [state],
              component,
              revision,
            }),
          ]
        : []),
    ];
  }
  // what the storage-initializer laid out in this pod, read next to the crash log (one wave): a model file it put elsewhere
  const layout = layoutRead(ctx, pod, failure);
  const crash = await crashLog(ctx, pod, failure);
  // what the crash log says (a missing model file, a model the runtime cannot load) explains the crash loop
  const matched = signatureFindings(
    ctx,
    crash.source,
    {
      subject,
      component,
      revision,
      pod: name,
      ...gpuScopeOf(pod, failure.container),
      explains: ['CRASH_LOOP', 'READINESS_PROBE_FAILING'],
    },
    versionFactsOf(ctx, pods),
  ).findings;
  const causes = await Promise.all(
    (
      await withModelLayout(ctx, pod, withLlmRuntimeFixes(ctx, pod, failure.container, matched), layout ?? noLayout)
    ).map((f) => withOffer(ctx, f, pod, failure.container)),
  );
  // a missing path under an empty volume mounted over the image's directory (Knative's /var/log)
  const hidden = causes.length
    ? undefined
    : hiddenByMount(ctx, pod, failure.container, crash.source.lines, component, await knativeRelease(ctx, revision));
  return [
    ...causes,
    finding('CRASH_LOOP', {
      subject,
      title: `${failure.container} keeps crashing (${failure.reason}${failure.exitCode !== undefined ? `, exit code ${failure.exitCode}` : ''}, ${failure.restarts} restarts)${hidden ? `: ${hidden.path} is under ${hidden.mount.mountPath}, where ${hidden.by} mounts the empty volume ${hidden.mount.name}` : ''}`,
      evidence: [state, ...crash.evidence, ...(hidden ? [hidden.evidence] : [])],
      ...(hidden ? { next: hidden.next } : {}),
      remediation: await offerFix('restart-pods', ctx, {
        pods,
        component: component ?? 'predictor',
        ...(revision ? { revision } : {}),
      }),
      component,
      revision,
    }),
  ];
}

/** No layout read was started (no completed storage-initializer, or the crash says something else): none is made later either. */
const noLayout = Promise.resolve(undefined);

/** The Knative release the crashed pod's revision is labelled with, where Knative labels it. */
async function knativeRelease(ctx: DiagnosisContext, revision: string | undefined): Promise<string | undefined> {
  if (!revision) return undefined;
  const rev = (await revisionsOf(ctx).catch(() => [])).find((r) => r.metadata?.name === revision);
  return knativeReleaseOf(rev?.metadata?.labels);
}

/**
 * The fix an LLM runtime's line supports, as an approvable change: a KV cache smaller than the
 * context sets --max-model-len to what the cache holds (the number in vLLM's line); a sampler
 * warm-up out of GPU memory with --gpu-memory-utilization raised above vLLM's default lowers it
 * back (the fraction the crashed container ran with, from its args), and at or below the default
 * lowers --max-num-seqs below the warm-up's count; /dev/shm too small for NCCL
 * mounts a 2Gi memory-backed emptyDir there (the exact YAML by hand for a container in a list).
 */
async function withOffer(ctx: DiagnosisContext, f: Finding, pod: V1Pod, container: string): Promise<Finding> {
  if (f.remediation) return f;
  const lines = f.evidence.flatMap((e) => [e.text ?? '', ...(e.excerpt ?? [])]);
  if (f.code === 'KV_CACHE_TOO_SMALL') {
    const tokens = lines.map(kvCacheTokens).find((n) => n !== undefined);
    if (tokens === undefined) return f;
    const remediation = await offerFix('lower-max-model-len', ctx, { component: f.component, tokens });
    return remediation ? { ...f, remediation } : f;
  }
  if (f.code === 'GPU_OUT_OF_MEMORY') {
    const requests = lines.map(samplerWarmupOom).find((n) => n !== undefined);
    const spec = pod.spec?.containers?.find((c) => c.name === container);
    const current = gpuMemoryUtilization([...(spec?.command ?? []), ...(spec?.args ?? [])]);
    if (requests === undefined || current === undefined) return f;
    // above vLLM's default fraction, the raise took the headroom; at or below it, fewer sequences
    const remediation =
      (await offerFix('lower-gpu-memory-utilization', ctx, { component: f.component, current, requests })) ??
      (await offerFix('lower-max-num-seqs', ctx, { component: f.component, requests }));
    return remediation ? { ...f, remediation } : f;
  }
  if (f.code === 'SHM_TOO_SMALL') {
    const remediation = await offerFix('raise-shm', ctx, { component: f.component });
    return remediation ? { ...f, remediation } : f;
  }
  return f;
}

/**
 * The crashed instance's log (or, when it cannot be read, the termination message that holds its
 * tail under FallbackToLogsOnError): the evidence, and the lines to match against the signatures.
 */
async function crashLog(
  ctx: DiagnosisContext,
  pod: V1Pod,
  failure: ContainerFailure,
): Promise<{ evidence: Evidence[]; source: LineSource }> {
  const ref = refOf('Pod', ctx.target.namespace, pod.metadata?.name ?? '?');
  const read = await readContainerLog(ctx, ctx.target.namespace, pod.metadata?.name ?? '?', failure.container, {
    preferPrevious: failure.fromPrevious,
  });
  const fromMessage = read.evidence.excerpt?.length
    ? undefined
    : messageLogEvidence(failure.terminationMessage, {
        ref,
        container: failure.container,
        label: 'termination message',
      });
  const text = read.text ?? (fromMessage ? (failure.terminationMessage ?? '') : '');
  return {
    evidence: fromMessage ? [read.evidence, fromMessage] : [read.evidence],
    source: {
      where: 'model-log',
      ref,
      kind: 'log',
      container: failure.container,
      ...(read.text ? { previous: read.evidence.previous } : { label: 'termination message' }),
      lines: splitLogLines(text),
    },
  };
}

/** The kubelet's record of the killed instance, as kubectl shows it (lastState.terminated.reason: OOMKilled). */
function terminatedField(pod: V1Pod, container: string, subject: string): Evidence[] {
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  const [where, t] = status?.lastState?.terminated
    ? ['lastState', status.lastState.terminated]
    : ['state', status?.state?.terminated];
  return t
    ? [
        {
          kind: 'field',
          ref: subject,
          container,
          text: `${where}.terminated.reason: ${t.reason ?? 'Error'}, exitCode: ${t.exitCode}`,
        },
      ]
    : [];
}

/**
 * Running but never ready: the kubelet's "Readiness probe failed" events, with the model container's
 * log and the logs of the other containers that run but are not ready (an injected agent probing a
 * port nothing listens on, queue-proxy), matched against the signatures. Under Knative the user's probe moves into queue-proxy (SERVING_READINESS_PROBE), so the
 * kubelet probes queue-proxy and the model container itself reports ready.
 */
async function readinessFindings(ctx: DiagnosisContext, pods: V1Pod[]): Promise<Finding[]> {
  const candidates = pods.filter((p) => {
    const statuses = p.status?.containerStatuses ?? [];
    return (
      p.status?.phase === 'Running' &&
      statuses.some((s) => s.state?.running && !s.ready) &&
      statuses.filter((s) => isModelContainer(s.name)).every((s) => s.state?.running && (s.restartCount ?? 0) === 0)
    );
  });
  if (candidates.length === 0) return [];
  const events = await eventsOf(ctx);
  for (const pod of candidates) {
    const name = pod.metadata?.name ?? '?';
    const probeEvents = events.filter(
      (e) => e.involvedObject?.name === name && /Readiness probe failed/i.test(e.message ?? ''),
    );
    if (probeEvents.length === 0) continue;
    const modelContainer = pod.spec?.containers?.find((c) => isModelContainer(c.name));
    const container = modelContainer?.name ?? 'kserve-container';
    const subject = refOf('Pod', ctx.target.namespace, name);
    const component = componentOf(pod.metadata?.labels);
    const revision = revisionOfPod(pod);
    // the containers that run but are not ready (an injected agent, queue-proxy) say what they wait for
    const unready = (pod.status?.containerStatuses ?? [])
      .filter((s) => s.state?.running && !s.ready && s.name !== container)
      .slice(0, 2);
    const [log, ...sidecarLogs] = await Promise.all([
      readContainerLog(ctx, ctx.target.namespace, name, container, {
        head: true,
        currentOnly: true,
        match: /error|warn|waiting|loading|timeout/i,
      }),
      ...unready.map((s) =>
        readContainerLog(ctx, ctx.target.namespace, name, s.name, {
          currentOnly: true,
          match: /error|refused|fail|timeout/i,
        }),
      ),
    ]);
    const facts = versionFactsOf(ctx, pods);
    const causes = sidecarLogs.flatMap((l, i) =>
      l.text
        ? signatureFindings(
            ctx,
            {
              where: 'model-log',
              ref: subject,
              kind: 'log',
              container: unready[i]!.name,
              previous: false,
              lines: splitLogLines(l.text),
            },
            { subject, component, revision, pod: name, ...gpuScopeOf(pod, unready[i]!.name) },
            facts,
          ).findings
        : [],
    );
    const last = probeEvents[probeEvents.length - 1]!;
    const probed = /\{([^}]+)\}/.exec(last.involvedObject?.fieldPath ?? '')?.[1] ?? container;
    const ports = (modelContainer?.ports ?? []).map((p) => p.containerPort);
    return [
      ...causes,
      finding('READINESS_PROBE_FAILING', {
        subject,
        title: `${container} runs but never becomes ready: ${last.message ?? 'readiness probe failed'}${last.count && last.count > 1 ? ` (x${last.count})` : ''}`,
        evidence: [
          { kind: 'probe', ref: subject, container: probed, text: probeText(pod, container) },
          ...(ports.length
            ? [
                {
                  kind: 'field' as const,
                  ref: subject,
                  container,
                  text: `${container} containerPort: ${ports.join(', ')}`,
                },
              ]
            : []),
          ...probeEvents.slice(-2).map((e) => ({
            kind: 'event' as const,
            ref: subject,
            container: probed,
            text: `${e.reason}: ${e.message}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
          })),
          log!.evidence,
          // the logs no signature explained (a matched one is the cause's evidence)
          ...sidecarLogs
            .filter(
              (l, i) =>
                l.text &&
                l.evidence.excerpt?.length &&
                !causes.some((c) => c.evidence.some((e) => e.container === unready[i]!.name)),
            )
            .map((l) => l.evidence),
        ],
        component,
        revision,
      }),
    ];
  }
  return [];
}

/** The readiness probe as configured: on the model container, or handed to queue-proxy by Knative. */
function probeText(pod: V1Pod, container: string): string {
  const own = pod.spec?.containers?.find((c) => c.name === container)?.readinessProbe;
  if (own?.httpGet)
    return `${container} readiness probe: httpGet ${own.httpGet.path ?? '/'} port ${String(own.httpGet.port)}`;
  if (own?.tcpSocket) return `${container} readiness probe: tcpSocket port ${String(own.tcpSocket.port)}`;
  const queue = pod.spec?.containers?.find((c) => c.name === 'queue-proxy');
  const serving = queue?.env?.find((e) => e.name === 'SERVING_READINESS_PROBE')?.value;
  return serving ? `queue-proxy probes ${container} for Knative: ${serving}` : 'readiness probe';
}
