/**
 * A multi-node InferenceService (`spec.predictor.workerSpec`, KServe 0.14+, Standard mode) serves only
 * when its head and every worker pod run: KServe makes the head Deployment `<isvc>-predictor` and the
 * worker Deployment `<isvc>-predictor-worker` (pods labelled `app: isvc.<isvc>-predictor-worker`,
 * container `worker-container`); with Ray (the huggingface multinode runtime) the head's start script
 * waits in `health_check.py registered_nodes` ("Waiting - Registered nodes count (1) does not match
 * RAY_NODE_COUNT (2).") and then vLLM waits for its placement group; with the mp executor (0.18+) the
 * head's torch.distributed store waits for the workers' ranks and, after its timeout, the head exits
 * and restarts (its crash loop is that wait). The head is Running and never ready, and nothing on
 * the InferenceService names the worker. Reads the worker pods (missing, pending with the scheduler's
 * words, another image than the head's, not ready or crashing) and the head's own waiting line, and
 * names the worker pod and why. With no worker pod at all, the worker Deployment's events say whether
 * the controller keeps recreating and deleting it (KServe 0.20.0's canary cleanup; test/scenarios/multinode-worker-deployment-deleted-head-waits-kserve-0-20).
 *
 * RBAC: list pods, get pods/log, list events.
 * Emits: LLM_WORKER_GROUP_SHORT.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { unlessForbidden } from '../src/diagnosis/unless-forbidden.js';
import { isObj } from '../src/core/plain-object.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { containerFailures } from '../src/kube/pod-status.js';

const restarted = (pod: V1Pod) => (pod.status?.containerStatuses ?? []).some((c) => (c.restartCount ?? 0) > 0);

/** The head's own words while workers are missing: KServe's Ray check, vLLM's placement group, the mp executor. */
const WAITING =
  /Waiting - Registered nodes count \((\d+)\) does not match RAY_NODE_COUNT \((\d+)\)|Waiting for creating a placement group of specs|Waiting for workers|Max retries reached\. Node count did not match|waiting for clients\. \d+\/\d+ clients joined/;
/**
 * Without Ray (the mp executor, KServe 0.18+): torch.distributed's store on the head waits for every
 * rank, gives up after its timeout and the head exits ("DistStoreError: Timed out after 601 seconds
 * waiting for clients. 1/2 clients joined."; test/scenarios/multinode-mp-head-store-timeout-worker-pending-kserve-0-18): its crash is the wait.
 */
const STORE_TIMEOUT = /waiting for clients\. (\d+)\/(\d+) clients joined/;

export const multinodeWorkers: Playbook = {
  id: 'multinode-workers',
  title: 'A multi-node worker is missing or not ready',
  emits: ['LLM_WORKER_GROUP_SHORT'],
  async run(ctx) {
    const predictor = (ctx.target.isvc.spec as { predictor?: { workerSpec?: unknown } } | undefined)?.predictor;
    if (!predictor?.workerSpec) return [];
    const name = ctx.target.name;
    const ns = ctx.target.namespace;
    const workerDeployment = `${name}-predictor-worker`;
    const pods = await podsOf(ctx);
    const appOf = (p: V1Pod) => p.metadata?.labels?.app ?? '';
    const isWorker = (p: V1Pod) =>
      appOf(p) === `isvc.${workerDeployment}` ||
      p.metadata?.labels?.['multinode/role'] === 'worker' ||
      (p.metadata?.name ?? '').startsWith(`${workerDeployment}-`);
    const workers = pods.filter(isWorker);
    const heads = pods.filter((p) => !isWorker(p));
    const head = heads.find((p) => p.status?.phase === 'Running') ?? heads[0];
    const headReady = head?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const setBy = workers.some((w) => imageMismatch(w, head)) ? await workerImageSetBy(ctx) : undefined;
    const bad = workers.map((w) => ({ pod: w, why: workerProblem(w, head, setBy) })).filter((x) => x.why !== undefined);
    if (headReady && bad.length === 0) return [];
    if (workers.length > 0 && bad.length === 0) return [];
    if (!head && workers.length === 0) return [];
    // the head's waiting line decides that it waits for workers (not a model or runtime fault of its own)
    const headName = head?.metadata?.name ?? '?';
    const headLog = head
      ? await readContainerLog(
          ctx,
          ns,
          headName,
          'kserve-container',
          // a head that restarted: the instance that gave up waiting says how many ranks joined
          restarted(head) ? { match: WAITING, preferPrevious: true } : { match: WAITING, currentOnly: true },
        )
      : undefined;
    const waiting = headLog?.text?.split('\n').filter((l) => WAITING.test(l)) ?? [];
    const counts = waiting.map((l) => WAITING.exec(l)).find((m) => m?.[1] !== undefined);
    const store = waiting.map((l) => STORE_TIMEOUT.exec(l)).find((m) => m !== null);
    const said = counts
      ? ` (Ray: ${counts[1]} of RAY_NODE_COUNT ${counts[2]} nodes registered)`
      : store
        ? ` (torch.distributed: ${store[1]} of ${store[2]} ranks joined the head's store before it gave up)`
        : '';
    // the head's exits are its wait for the workers, not a fault of its own
    const headCrash = store ? (['CRASH_LOOP'] as const) : [];
    const evidence: Evidence[] = [];
    if (headLog && waiting.length > 0) evidence.push(headLog.evidence);
    const subjectHead = refOf('Pod', ns, headName);
    const out: Finding[] = [];
    if (workers.length === 0) {
      const events = (await eventsOf(ctx)).filter((e) => (e.involvedObject?.name ?? '').startsWith(workerDeployment));
      const created = events.find((e) => e.reason === 'SuccessfulCreate' || e.reason === 'ScalingReplicaSet');
      const killed = events.find((e) => e.reason === 'Killing');
      const release = versionFactsOf(ctx, pods).kserve?.replace(/^v/, '');
      const churn = created && (created.count ?? 1) > 3;
      const ev = (e: NonNullable<typeof created>): Evidence => ({
        kind: 'event',
        ref: refOf(e.involvedObject?.kind ?? 'Pod', ns, e.involvedObject?.name ?? '?'),
        text: `${e.reason ?? ''}: ${e.message ?? ''}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
      });
      evidence.push(
        {
          kind: 'field',
          ref: refOf('InferenceService', ns, name),
          text: `spec.predictor.workerSpec: ${JSON.stringify(predictor.workerSpec)}`,
        },
        {
          kind: 'field',
          ref: subjectHead,
          text: `pods of ${name}: ${pods.map((p) => p.metadata?.name).join(', ') || 'none'}; none of Deployment ${workerDeployment} (app=isvc.${workerDeployment})`,
        },
        ...(created ? [ev(created)] : []),
        ...(killed ? [ev(killed)] : []),
        ...(release
          ? [{ kind: 'field' as const, ref: subjectHead, text: `KServe release (from the images): ${release}` }]
          : []),
      );
      const regression = release?.startsWith('0.20.0') ?? false;
      out.push(
        finding('LLM_WORKER_GROUP_SHORT', {
          subject: subjectHead,
          title: `Head pod ${headName} waits for its workers${said}, and no pod of the worker Deployment ${workerDeployment} exists${churn ? `: it was created ${created?.count} times and is deleted again` : ''}`,
          evidence,
          component: 'predictor',
          explains: ['READINESS_PROBE_FAILING', 'ISVC_NOT_READY', 'MODEL_LOAD_FAILED', ...headCrash],
          next: churn
            ? `kubectl get deployment,service -n ${ns} -w | grep ${name}: the controller creates Deployment ${workerDeployment} and the head/worker headless Services and deletes them again in the same reconcile${regression ? ` (KServe ${release}'s canary cleanup, kserve/kserve#6113: fixed after 0.20.0; 0.19 does not do it)` : ''}; move the KServe controller to a release without it${regression ? ' (or back to 0.19)' : ''}, then kubectl delete pod ${headName} -n ${ns} so the head forms the Ray cluster with the worker`
            : `kubectl describe deployment ${workerDeployment} -n ${ns} and kubectl get events -n ${ns} --field-selector involvedObject.name=${workerDeployment}: the worker Deployment has no pod, so head pod ${headName} waits; get its replica created (quota, admission, the controller's log for ${name}), then kubectl delete pod ${headName} -n ${ns}`,
        }),
      );
      return out;
    }
    for (const { pod, why } of bad) {
      if (!why) continue;
      const workerName = pod.metadata?.name ?? '?';
      out.push(
        finding('LLM_WORKER_GROUP_SHORT', {
          subject: refOf('Pod', ns, workerName),
          title: `Worker pod ${workerName} ${why.title}: head pod ${headName} waits for it${said}`,
          evidence: [{ kind: 'field', ref: refOf('Pod', ns, workerName), text: why.text }, ...evidence],
          component: 'predictor',
          // the worker's own scheduling failure is said here with the head's wait and workerSpec's fields
          explains: [
            'READINESS_PROBE_FAILING',
            'ISVC_NOT_READY',
            ...(why.unscheduled ? (['POD_UNSCHEDULABLE'] as const) : []),
            ...headCrash,
          ],
          next: why.next(workerName, headName, ns, name),
        }),
      );
    }
    return out;
  },
};

interface Problem {
  title: string;
  unscheduled?: boolean;
  text: string;
  next: (worker: string, head: string, ns: string, isvc: string) => string;
}

/** The head's and a worker's model-server images when they differ. */
function imageMismatch(worker: V1Pod, head: V1Pod | undefined): { head: string; worker: string } | undefined {
  const headImage = head?.spec?.containers?.find((c) => c.name === 'kserve-container')?.image;
  const workerImage = worker.spec?.containers?.find((c) => c.name === 'worker-container')?.image;
  return headImage && workerImage && headImage !== workerImage ? { head: headImage, worker: workerImage } : undefined;
}

/**
 * Where the worker's image comes from, so the next step edits that field: the InferenceService's own
 * workerSpec container, else its runtime's `spec.workerSpec` (KServe merges the two, the
 * InferenceService's winning); a model's `runtimeVersion` decides when it is the head's image tag.
 */
type ImageSetBy =
  | { by: 'isvc'; field: string }
  | { by: 'runtime-version'; runtimeVersion: string; runtime?: RuntimeRef }
  | { by: 'runtime'; runtime: RuntimeRef };
interface RuntimeRef {
  kind: 'ServingRuntime' | 'ClusterServingRuntime';
  name: string;
  workerImage?: string;
  headImage?: string;
}

async function workerImageSetBy(ctx: DiagnosisContext): Promise<ImageSetBy | undefined> {
  const predictor = (ctx.target.isvc.spec as { predictor?: Record<string, unknown> } | undefined)?.predictor ?? {};
  const workerSpec = isObj(predictor.workerSpec) ? predictor.workerSpec : {};
  const containers = Array.isArray(workerSpec.containers) ? workerSpec.containers.filter(isObj) : [];
  const own = containers.findIndex((c) => typeof c.image === 'string' && c.image !== '');
  if (own >= 0)
    return {
      by: 'isvc',
      field: `spec.predictor.workerSpec.containers[${String(containers[own]?.name ?? own)}].image`,
    };
  const model = isObj(predictor.model) ? predictor.model : {};
  const status = ctx.target.isvc.status as { servingRuntimeName?: unknown } | undefined;
  const name =
    typeof model.runtime === 'string'
      ? model.runtime
      : typeof status?.servingRuntimeName === 'string'
        ? status.servingRuntimeName
        : undefined;
  const runtime = name ? await runtimeNamed(ctx, name) : undefined;
  if (typeof model.runtimeVersion === 'string' && model.runtimeVersion !== '')
    return { by: 'runtime-version', runtimeVersion: model.runtimeVersion, ...(runtime ? { runtime } : {}) };
  return runtime ? { by: 'runtime', runtime } : undefined;
}

/** The runtime of that name (the namespace's first, as KServe picks), with its head and worker images. */
async function runtimeNamed(ctx: DiagnosisContext, name: string): Promise<RuntimeRef | undefined> {
  const read = async (kind: RuntimeRef['kind']) =>
    unlessForbidden(
      kind === 'ServingRuntime'
        ? ctx.reader.listKind('ServingRuntime', ctx.target.namespace)
        : ctx.reader.listKind('ClusterServingRuntime', undefined),
      [],
    );
  for (const kind of ['ServingRuntime', 'ClusterServingRuntime'] as const) {
    const found = (await read(kind)).find((o) => o.metadata.name === name);
    if (!found) continue;
    const spec = found.spec ?? {};
    const imageOf = (list: unknown) =>
      Array.isArray(list)
        ? list
            .filter(isObj)
            .map((c) => c.image)
            .find((i): i is string => typeof i === 'string')
        : undefined;
    const workerImage = imageOf(isObj(spec.workerSpec) ? spec.workerSpec.containers : undefined);
    const headImage = imageOf(spec.containers);
    return { kind, name, ...(workerImage ? { workerImage } : {}), ...(headImage ? { headImage } : {}) };
  }
  return { kind: 'ClusterServingRuntime', name };
}

/** The edit that gives the worker the head's image, at the field that sets it. */
function imageFix(
  images: { head: string; worker: string },
  setBy: ImageSetBy | undefined,
  ns: string,
  isvc: string,
): string {
  const edit = (r: RuntimeRef) =>
    `kubectl edit ${r.kind.toLowerCase()} ${r.name}${r.kind === 'ServingRuntime' ? ` -n ${ns}` : ''}`;
  switch (setBy?.by) {
    case 'isvc':
      return `kubectl edit inferenceservice ${isvc} -n ${ns}: ${setBy.field} is ${images.worker}; set it to the head's ${images.head} (or remove it so the runtime's worker image applies)`;
    case 'runtime-version':
      // runtimeVersion decides only when it is the head's tag; otherwise the runtime's images do
      if (images.head.endsWith(`:${setBy.runtimeVersion}`))
        return `kubectl edit inferenceservice ${isvc} -n ${ns}: spec.predictor.model.runtimeVersion ${setBy.runtimeVersion} gives the head ${images.head} while the worker runs ${images.worker}${setBy.runtime ? ` (${setBy.runtime.kind} ${setBy.runtime.name}'s spec.workerSpec)` : ''}; remove runtimeVersion${setBy.runtime ? `, or set spec.workerSpec's image to ${images.head} there (${edit(setBy.runtime)})` : ''}`;
      return setBy.runtime
        ? imageFix(images, { by: 'runtime', runtime: setBy.runtime }, ns, isvc)
        : imageFix(images, undefined, ns, isvc);
    case 'runtime':
      return `${edit(setBy.runtime)}: spec.workerSpec's container image is ${setBy.runtime.workerImage ?? images.worker} while the head runs ${images.head}${setBy.runtime.headImage && setBy.runtime.headImage !== images.head ? ` (spec.containers: ${setBy.runtime.headImage})` : ''}; make them the same image`;
    default:
      return `kubectl edit inferenceservice ${isvc} -n ${ns}: set spec.predictor.workerSpec's container image to ${images.head}`;
  }
}

/** Why a worker pod does not take part: not scheduled, another image than the head's, failing or not ready. */
function workerProblem(worker: V1Pod, head: V1Pod | undefined, setBy: ImageSetBy | undefined): Problem | undefined {
  const scheduled = worker.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False') {
    const gpus = worker.spec?.containers?.map((c) => c.resources?.limits?.['nvidia.com/gpu']).find(Boolean);
    return {
      unscheduled: true,
      // the scheduler's words without its preemption postscript: what no node has
      title: `is not scheduled (${(scheduled.message ?? scheduled.reason ?? 'Pending').replace(/\s*preemption:.*$/s, '')})`,
      text: `PodScheduled=False${scheduled.reason ? ` (${scheduled.reason})` : ''}: ${scheduled.message ?? ''}${gpus ? `; asks nvidia.com/gpu ${gpus}` : ''}`,
      next: (w, h, ns) =>
        `Free or add a node that fits worker pod ${w}${gpus ? ` (nvidia.com/gpu ${gpus} on one node)` : ''} as the scheduler says (kubectl describe pod ${w} -n ${ns}), or lower spec.predictor.workerSpec's pipelineParallelSize / tensorParallelSize so fewer GPUs are asked; head pod ${h} serves once the worker joins`,
    };
  }
  const images = imageMismatch(worker, head);
  if (images)
    return {
      title: `runs image ${images.worker}, the head ${images.head}`,
      text: `worker-container image ${images.worker}; head kserve-container image ${images.head}`,
      next: (w, h, ns, isvc) =>
        `${imageFix(images, setBy, ns, isvc)}, so the Ray / vLLM versions of head and worker match; then kubectl delete pod ${w} ${h} -n ${ns}`,
    };
  const failure = containerFailures(worker)[0];
  if (failure)
    return {
      title: `fails (${failure.container}: ${failure.reason}${failure.exitCode !== undefined ? `, exit code ${failure.exitCode}` : ''})`,
      text: `${failure.container}: ${failure.reason}${failure.message ? `: ${failure.message}` : ''}, ${failure.restarts} restart(s)`,
      next: (w, h, ns) =>
        `kubectl logs ${w} -n ${ns} -c ${failure.container} --previous: fix what ends worker pod ${w}, then kubectl delete pod ${h} -n ${ns} so the head waits for it again`,
    };
  const ready = worker.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True')
    return {
      title: `is not ready (${worker.status?.phase ?? 'unknown'})`,
      text: `phase ${worker.status?.phase ?? '?'}; Ready=${ready?.status ?? '?'}${ready?.message ? `: ${ready.message}` : ''}`,
      next: (w, h, ns) =>
        `kubectl describe pod ${w} -n ${ns} and kubectl logs ${w} -n ${ns} -c worker-container: worker pod ${w} has not joined head pod ${h}'s cluster`,
    };
  return undefined;
}
