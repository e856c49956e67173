/**
 * The Kubernetes events of what the InferenceService runs on (its ReplicaSets, Deployments, pods,
 * Knative Ingresses and Revisions): Warning events that say why the workload cannot exist, matched
 * against the signature catalog (`event` entries). Classes: a webhook call that fails (an x509
 * certificate the API server refuses, a webhook without endpoints) or a webhook that denies the pods
 * or the VirtualService (a host label over 63 characters, a policy engine, Pod Security); a
 * ReadWriteOnce volume attached to another node's pod (Multi-Attach). Read even when the service
 * says Ready, if none of its pods is ready: statuses written before a failure stay Ready while the
 * ReplicaSet cannot create a pod. (ResourceQuota / LimitRange refusals: pod-scheduling; the
 * controller's own events on the InferenceService: controller-reconcile.) When the events are gone,
 * KServe 0.16+ still holds the refusal in PredictorReady (reason FailedCreate, copied from the
 * Deployment's ReplicaFailure): matched the same way.
 *
 * RBAC: list events, list pods.
 * Emits: ADMISSION_DENIED, POD_UNSCHEDULABLE.
 */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { signatureFindings } from '../src/diagnosis/signature-findings.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import type { Finding } from '../src/findings/types.js';
import type { VersionFacts } from '../src/signatures/signature-catalog.js';
import { isReady, refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';

export const workloadEvents: Playbook = {
  id: 'workload-events',
  title: 'Events of the pods and the objects that create them',
  emits: ['ADMISSION_DENIED', 'POD_UNSCHEDULABLE'],
  async run(ctx) {
    const [events, pods] = await Promise.all([eventsOf(ctx), podsOf(ctx)]);
    if (isReady(ctx.target.isvc) && pods.some(podReady)) return [];
    const warnings = events.filter((e) => e.type === 'Warning' && e.involvedObject?.kind !== 'InferenceService');
    const facts = versionFactsOf(ctx, pods);
    const out: Finding[] = [];
    for (const [key, group] of byObject(warnings)) {
      const [kind, name] = key.split('/') as [string, string];
      const pod = kind === 'Pod' ? pods.find((p) => p.metadata?.name === name) : undefined;
      const subject = refOf(kind, ctx.target.namespace, name);
      const source = { where: 'event' as const, ref: subject, kind: 'event' as const, lines: group.map(eventLine) };
      const scope = {
        subject,
        component: (pod ? componentOf(pod.metadata?.labels) : undefined) ?? componentOfName(name, ctx.target.name),
        ...(pod && revisionOfPod(pod) ? { revision: revisionOfPod(pod) } : {}),
        ...(pod ? { pod: name } : {}),
      };
      out.push(...signatureFindings(ctx, source, scope, facts).findings);
    }
    if (out.length === 0) out.push(...replicaFailureFindings(ctx, facts));
    return out;
  },
};

/**
 * KServe 0.16+ copies a Deployment's ReplicaFailure (the ReplicaSet could not create a pod) into the
 * component's Ready condition: the refusal's own words, still there after its events expired.
 */
function replicaFailureFindings(ctx: DiagnosisContext, facts: VersionFacts): Finding[] {
  const failed = (ctx.target.isvc.status?.conditions ?? []).filter(
    (c) =>
      c.status === 'False' && c.reason === 'FailedCreate' && /^(Predictor|Transformer|Explainer)Ready$/.test(c.type),
  );
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  return failed.flatMap((c) => {
    const component = c.type.replace(/Ready$/, '').toLowerCase();
    const source = {
      where: 'event' as const,
      ref: subject,
      kind: 'condition' as const,
      label: `${c.type} (the Deployment's ReplicaFailure, as KServe copies it)`,
      lines: [(c.message ?? '').replace(/\s*\n+\s*/g, ' ')],
    };
    return signatureFindings(ctx, source, { subject, component }, facts).findings;
  });
}

function podReady(p: V1Pod): boolean {
  return Boolean(p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
}

/** Warning events grouped by the object they are about ("Kind/name"), oldest first. */
function byObject(events: CoreV1Event[]): Map<string, CoreV1Event[]> {
  const out = new Map<string, CoreV1Event[]>();
  for (const e of events) {
    const key = `${e.involvedObject?.kind ?? 'Object'}/${e.involvedObject?.name ?? '?'}`;
    out.set(key, [...(out.get(key) ?? []), e]);
  }
  return out;
}

/** One line per event (a multi-line message joined), with how often it happened. */
function eventLine(e: CoreV1Event): string {
  return `${(e.message ?? '').replace(/\s*\n+\s*/g, ' ')}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`;
}

/** predictor / transformer / explainer from the name of an object the service created. */
function componentOfName(name: string, isvc: string): string | undefined {
  return /^-(predictor|transformer|explainer)(?:-|$)/.exec(name.slice(isvc.length))?.[1];
}
