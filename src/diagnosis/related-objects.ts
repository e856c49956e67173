import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { apiGroupOf } from '../kube/inference-service-view.js';
import { knativeRevisionOfPod, ownedNamePrefixes, podsNamedFor } from '../kube/pod-labels.js';
import { inferenceServiceLabel } from '../kube/resources.js';
import type { KnativeService, KubeObject, Revision } from '../kube/schemas.js';
import type { DiagnosisContext } from './playbook.js';

/**
 * The objects an InferenceService owns, found by owner references and labels (never by guessing
 * names: KFServing's "-predictor-default" names differ from newer KServe's). All reads go through
 * the memoised reader, so playbooks asking for the same objects share one request.
 */
export function isvcLabelSelector(ctx: DiagnosisContext): string {
  return `${inferenceServiceLabel(apiGroupOf(ctx.target.apiVersion))}=${ctx.target.name}`;
}

function ownedBy(obj: KubeObject, uid: string | undefined, kind: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some((o) => o.kind === kind && (!uid || !o.uid || o.uid === uid));
}

function labelledFor(obj: KubeObject, ctx: DiagnosisContext): boolean {
  const labels = obj.metadata.labels ?? {};
  return (
    labels[inferenceServiceLabel('serving.kserve.io')] === ctx.target.name ||
    labels[inferenceServiceLabel('serving.kubeflow.org')] === ctx.target.name
  );
}

/** Knative Services owned by (or labelled for) the InferenceService. */
export async function knativeServicesOf(ctx: DiagnosisContext): Promise<KnativeService[]> {
  const all = await ctx.reader.listKind('KnativeService', ctx.target.namespace);
  const uid = ctx.target.isvc.metadata.uid;
  return all.filter(
    (k) =>
      (ownedBy(k, uid, 'InferenceService') &&
        (k.metadata.ownerReferences ?? []).some((o) => o.name === ctx.target.name)) ||
      labelledFor(k, ctx),
  );
}

/** Revisions of those Knative Services, newest generation last. */
export async function revisionsOf(ctx: DiagnosisContext): Promise<Revision[]> {
  const [services, revisions] = await Promise.all([
    knativeServicesOf(ctx),
    ctx.reader.listKind('Revision', ctx.target.namespace),
  ]);
  const names = new Set(services.map((s) => s.metadata.name));
  return revisions
    .filter((r) => {
      const labels = r.metadata.labels ?? {};
      return (
        names.has(labels['serving.knative.dev/service'] ?? '') ||
        names.has(labels['serving.knative.dev/configuration'] ?? '') ||
        labelledFor(r, ctx)
      );
    })
    .sort((a, b) => generationOf(a) - generationOf(b));
}

function generationOf(r: Revision): number {
  return Number(r.metadata.labels?.['serving.knative.dev/configurationGeneration'] ?? r.metadata.generation ?? 0);
}

/**
 * The InferenceService's pods (all components, all revisions): by the InferenceService label; when
 * none carry it (older or customised installs), the namespace's pods named after its components.
 */
export async function podsOf(ctx: DiagnosisContext): Promise<V1Pod[]> {
  const labelled = await ctx.reader.pods(ctx.target.namespace, isvcLabelSelector(ctx));
  if (labelled.length > 0) return labelled;
  return podsNamedFor(await ctx.reader.pods(ctx.target.namespace), ctx.target.name);
}

/** Events about the InferenceService or anything it created, oldest first. */
export async function eventsOf(ctx: DiagnosisContext): Promise<CoreV1Event[]> {
  const events = await ctx.reader.events(ctx.target.namespace);
  const prefixes = ownedNamePrefixes(ctx.target.name);
  return events
    .filter((e) => {
      const name = e.involvedObject?.name ?? '';
      return name === ctx.target.name || prefixes.some((p) => name.startsWith(p));
    })
    .sort((a, b) => eventTime(a) - eventTime(b));
}

export function eventTime(e: CoreV1Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t ? new Date(t as unknown as string).getTime() : 0;
}

/**
 * The deployment mode: the annotation or status when they say, else what the cluster shows (a
 * cluster-wide default in inferenceservice-config leaves no trace on the service): Knative
 * Services for it mean Serverless, pods without a Knative revision mean RawDeployment.
 */
export async function deploymentModeOf(ctx: DiagnosisContext): Promise<'Serverless' | 'RawDeployment' | 'ModelMesh'> {
  const isvc = ctx.target.isvc;
  const said =
    isvc.metadata.annotations?.['serving.kserve.io/deploymentMode'] ??
    isvc.metadata.annotations?.['serving.kubeflow.org/deploymentMode'] ??
    (isvc.status as { deploymentMode?: unknown } | undefined)?.deploymentMode;
  if (said === 'RawDeployment' || said === 'ModelMesh' || said === 'Serverless') return said;
  const [services, pods] = await Promise.all([knativeServicesOf(ctx).catch(() => []), podsOf(ctx).catch(() => [])]);
  if (services.length > 0) return 'Serverless';
  return pods.length > 0 && pods.every((p) => !knativeRevisionOfPod(p)) ? 'RawDeployment' : 'Serverless';
}
