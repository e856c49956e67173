/**
 * Knative Service and Revision (debug guide: "IngressNotConfigured", "RevisionMissing Error",
 * "Inference Service in OOM status").
 *
 * An InferenceService runs as Knative Services (one per component). `IngressNotConfigured` means
 * the ingress probes fail; `RevisionMissing`, or a latest created revision that is not ready, means
 * the pods never became ready; a revision reason `ExitCode137` means the container was OOMKilled.
 *
 * A revision with a minimum scale of 0 whose first pod the autoscaler removed before it was ready
 * (progress deadline) is said as such, with minReplicas as the fix.
 *
 * RBAC: list services.serving.knative.dev, list revisions.serving.knative.dev, list pods and events
 * (list limitranges for the memory cap of an OOM's offer).
 * Emits: INGRESS_NOT_CONFIGURED, REVISION_MISSING, OOM_KILLED.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, knativeServicesOf, podsOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { serviceNextStepContext } from '../src/diagnosis/service-next-step-context.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { conditionOf, deploymentMode, formatCondition, refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import type { KnativeService, Revision } from '../src/kube/schemas.js';
import { offerFix } from '../src/remediation/actions/index.js';

export const knativeService: Playbook = {
  id: 'knative-service',
  title: 'Knative Service and Revision status',
  emits: ['INGRESS_NOT_CONFIGURED', 'REVISION_MISSING', 'OOM_KILLED'],
  async run(ctx) {
    if (deploymentMode(ctx.target.isvc) !== 'Serverless') return [];
    const [services, revisions] = await Promise.all([knativeServicesOf(ctx), revisionsOf(ctx)]);
    return (await Promise.all(services.map((ksvc) => serviceFindings(ctx, ksvc, revisions)))).flat();
  },
};

async function serviceFindings(ctx: DiagnosisContext, ksvc: KnativeService, revisions: Revision[]): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const subject = refOf('Knative Service', ns, ksvc.metadata.name);
  const component = componentOf(ksvc.metadata.labels);
  const ready = conditionOf(ksvc, 'Ready');
  const routes = conditionOf(ksvc, 'RoutesReady');
  const configs = conditionOf(ksvc, 'ConfigurationsReady');
  const out: Finding[] = [];

  const ingress = [ready, routes].find((c) => c?.reason === 'IngressNotConfigured');
  if (ingress) {
    out.push(
      finding('INGRESS_NOT_CONFIGURED', {
        subject,
        title: `${ksvc.metadata.name}: IngressNotConfigured, the Istio ingress gateway probes are failing`,
        evidence: [
          { kind: 'condition', ref: subject, text: formatCondition(ingress) },
          {
            kind: 'note',
            ref: subject,
            text: `next: the Knative networking controller's logs in ${ctx.config.knativeNamespace} for the probe status codes`,
          },
        ],
        component,
      }),
    );
  }

  const latestName = ksvc.status?.latestCreatedRevisionName;
  const latest = revisions.find((r) => r.metadata.name === latestName);
  const latestReady = latest ? conditionOf(latest, 'Ready') : undefined;
  const revisionMissing = [ready, configs].find(
    (c) => c?.reason === 'RevisionMissing' || c?.reason === 'RevisionFailed',
  );
  if (revisionMissing || (latest && latestReady?.status !== 'True')) {
    const revisionRef = latest ? refOf('Revision', ns, latest.metadata.name) : subject;
    const scaledDown = latest ? await scaledToZeroBeforeReady(ctx, latest, component) : undefined;
    out.push(
      finding('REVISION_MISSING', {
        subject: revisionRef,
        title:
          scaledDown?.title ??
          (latest
            ? `Revision ${latest.metadata.name} is not ready${latestReady?.reason ? ` (${latestReady.reason})` : ''}`
            : `${ksvc.metadata.name} has no ready revision`),
        evidence: [
          ...(revisionMissing
            ? [{ kind: 'condition' as const, ref: subject, text: formatCondition(revisionMissing) }]
            : []),
          ...(latest ? revisionConditions(latest, ns) : []),
          ...(scaledDown?.evidence ?? []),
        ],
        ...(scaledDown ? { next: scaledDown.next } : {}),
        component,
        revision: latest?.metadata.name,
      }),
    );
  }

  if (latest && /^ExitCode137/.test(latestReady?.reason ?? conditionOf(latest, 'ContainerHealthy')?.reason ?? '')) {
    const revisionRef = refOf('Revision', ns, latest.metadata.name);
    out.push(
      finding('OOM_KILLED', {
        subject: revisionRef,
        title: `Revision ${latest.metadata.name} failed with ExitCode137: the container ran out of memory`,
        evidence: revisionConditions(latest, ns),
        remediation: await offerFix('raise-memory-limit', ctx, { component, revision: latest.metadata.name }),
        component,
        revision: latest.metadata.name,
      }),
    );
  }
  return out;
}

/**
 * A revision that never became ready and has no pod left, whose pod the autoscaler removed (the
 * Deployment scaled down to 0, the pod deleted while starting) with a minimum scale of 0: Knative
 * scales a revision that is not ready by its progress deadline to zero, so a first pod that waits
 * for a node and downloads a large model is killed before it can finish.
 */
async function scaledToZeroBeforeReady(
  ctx: DiagnosisContext,
  revision: Revision,
  component: string | undefined,
): Promise<{ title: string; evidence: Evidence[]; next: string } | undefined> {
  const ready = conditionOf(revision, 'Ready');
  if (
    ready?.status === 'True' ||
    (!/ProgressDeadlineExceeded/.test(ready?.reason ?? '') &&
      !/Initial scale was never achieved/.test(ready?.message ?? ''))
  )
    return undefined;
  const minScale =
    revision.metadata.annotations?.['autoscaling.knative.dev/minScale'] ??
    revision.metadata.annotations?.['autoscaling.knative.dev/min-scale'];
  if (minScale !== undefined && minScale !== '0') return undefined;
  const [pods, events] = await Promise.all([podsOf(ctx), eventsOf(ctx)]);
  const name = revision.metadata.name;
  if (pods.some((p) => revisionOfPod(p) === name)) return undefined;
  const ofRevision = events.filter((e) => (e.involvedObject?.name ?? '').startsWith(`${name}-deployment`));
  const scaleDown = ofRevision.filter(
    (e) => e.reason === 'ScalingReplicaSet' && /Scaled down .* to 0/.test(e.message ?? ''),
  );
  if (scaleDown.length === 0 || ofRevision.some((e) => e.reason === 'FailedCreate')) return undefined;
  const killed = ofRevision.filter((e) => e.reason === 'Killing');
  const waited = ofRevision.filter(
    (e) => e.reason === 'FailedScheduling' || e.reason === 'TriggeredScaleUp' || e.reason === 'Pulling',
  );
  const container = /container (\S+)/.exec(killed.at(-1)?.message ?? '')?.[1];
  const ns = ctx.target.namespace;
  const minReplicas = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace)
    .fieldPath(component, 'serviceAccountName')
    .replace(/serviceAccountName$/, 'minReplicas');
  const text = (e: (typeof events)[number]) =>
    `${e.reason}: ${e.message ?? ''}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`;
  return {
    title: `Revision ${name} was scaled to zero before its first pod became ready (minimum scale 0)${container ? `: the pod was stopped while ${container} was still running` : ''}`,
    evidence: [
      {
        kind: 'field',
        ref: refOf('Revision', ns, name),
        text: `autoscaling.knative.dev/minScale: ${minScale ?? 'not set (0)'}; ${minReplicas}: ${minScale ?? 0}`,
      },
      ...[...waited.slice(0, 1), ...killed.slice(-1), ...scaleDown.slice(-1)].map((e) => ({
        kind: 'event' as const,
        ref: refOf(e.involvedObject?.kind ?? 'Object', ns, e.involvedObject?.name ?? '?'),
        text: text(e),
      })),
    ],
    next: `kubectl edit inferenceservice ${ctx.target.name} -n ${ns}: set ${minReplicas} to 1, so Knative keeps the first pod until it is ready (with 0 it scales a revision that is not ready by its progress deadline to zero); or give the pod more time with the serving.knative.dev/progress-deadline annotation`,
  };
}

function revisionConditions(revision: Revision, ns: string) {
  const ref = refOf('Revision', ns, revision.metadata.name);
  return (revision.status?.conditions ?? [])
    .filter((c) => c.status !== 'True' && (c.type === 'Ready' || c.reason || c.message))
    .map((c) => ({ kind: 'condition' as const, ref, text: formatCondition(c) }));
}
