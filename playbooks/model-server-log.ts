/**
 * Ready, but the model did not load (and: running, never ready). Many model servers keep running
 * after a failed load: KFServing's sklearn / xgboost / lightgbm servers up to 0.7 catch every load
 * error, later ones a missing model file; TF Serving retries a path without a version folder
 * forever; Triton starts with an empty model table; TorchServe's and MLServer's wrappers log the
 * failure at INFO level. The InferenceService then says Ready (or its revision never becomes
 * ready without a probe event) while every request fails. This playbook reads the start of the log
 * of each component's running model server (bounded by limitBytes) and matches it against the
 * signature catalog (`model-log` entries). When the server finds no model file, the
 * storage-initializer's own lines say what it did put in /mnt/models.
 *
 * RBAC: list pods, get pods/log.
 * Emits: MODEL_LOAD_FAILED, MODEL_FILE_MISSING, RUNTIME_UNSUPPORTED_MODEL.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import { modelServerContainer } from '../src/diagnosis/model-server-container.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { gpuScopeOf } from '../src/kube/pod-gpus.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { withModelLayout } from '../src/diagnosis/model-layout.js';
import { signatureFindings } from '../src/diagnosis/signature-findings.js';
import type { Finding } from '../src/findings/types.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { deploymentMode, refOf } from '../src/kube/inference-service-view.js';
import { containerFailures } from '../src/kube/pod-status.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';

/** What the storage-initializer logs about what it put in /mnt/models (KServe and KFServing). */
export const modelServerLog: Playbook = {
  id: 'model-server-log',
  title: 'The model server says the model did not load',
  emits: ['MODEL_LOAD_FAILED', 'MODEL_FILE_MISSING', 'RUNTIME_UNSUPPORTED_MODEL'],
  async run(ctx) {
    if (deploymentMode(ctx.target.isvc) === 'ModelMesh') return [];
    const pods = await podsOf(ctx);
    const targets = runningServers(pods);
    const found = await Promise.all(targets.map(({ pod, container }) => serverFindings(ctx, pods, pod, container)));
    return found.flat();
  },
};

/** Per component, the newest pod whose model server runs without having crashed (crashes are model-container's). */
export function runningServers(pods: readonly V1Pod[]): Array<{ pod: V1Pod; container: string }> {
  const byComponent = new Map<string, { pod: V1Pod; container: string }>();
  const newestFirst = [...pods].sort((a, b) => time(b) - time(a));
  for (const pod of newestFirst) {
    if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) continue;
    const container = modelServerContainer(pod);
    const status = pod.status.containerStatuses?.find((s) => s.name === container);
    if (!container || !status?.state?.running) continue;
    if (containerFailures(pod).some((f) => f.container === container)) continue;
    const component = componentOf(pod.metadata?.labels) ?? 'predictor';
    if (!byComponent.has(component)) byComponent.set(component, { pod, container });
  }
  return [...byComponent.values()];
}

function time(pod: V1Pod): number {
  const t = pod.metadata?.creationTimestamp;
  return t ? new Date(t as unknown as string).getTime() : 0;
}

async function serverFindings(
  ctx: DiagnosisContext,
  pods: readonly V1Pod[],
  pod: V1Pod,
  container: string,
): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const name = pod.metadata?.name ?? '?';
  const log = await readContainerLog(ctx, ns, name, container, { head: true, currentOnly: true });
  if (!log.text) return [];
  const scope = {
    subject: refOf('Pod', ns, name),
    component: componentOf(pod.metadata?.labels),
    revision: revisionOfPod(pod),
    pod: name,
    ...gpuScopeOf(pod, container),
  };
  const source = {
    where: 'model-log' as const,
    ref: refOf('Pod', ns, name),
    kind: 'log' as const,
    container,
    previous: false,
    lines: splitLogLines(log.text),
  };
  const { findings } = signatureFindings(ctx, source, scope, versionFactsOf(ctx, pods));
  if (!findings.some((f) => f.code === 'MODEL_FILE_MISSING')) return findings;
  return withModelLayout(ctx, pod, findings);
}
