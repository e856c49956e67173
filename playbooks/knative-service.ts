/**
 * Knative Service and Revision (debug guide: "IngressNotConfigured", "RevisionMissing Error",
 * "Inference Service in OOM status").
 *
 * An InferenceService runs as Knative Services (one per component). `IngressNotConfigured` means
 * the ingress probes fail; `RevisionMissing`, or a latest created revision that is not ready, means
 * the pods never became ready; a revision reason `ExitCode137` means the container was OOMKilled.
 *
 * RBAC: list services.serving.knative.dev, list revisions.serving.knative.dev (list limitranges for
 * the memory cap of an OOM's offer).
 * Emits: INGRESS_NOT_CONFIGURED, REVISION_MISSING, OOM_KILLED.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { knativeServicesOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Finding } from '../src/findings/types.js';
import { conditionOf, deploymentMode, formatCondition, refOf } from '../src/kube/inference-service-view.js';
import { componentOf } from '../src/kube/pod-labels.js';
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
          { kind: 'note', ref: subject, text: `next: the Knative networking controller's logs in ${ctx.config.knativeNamespace} for the probe status codes` },
        ],
        component,
      }),
    );
  }

  const latestName = ksvc.status?.latestCreatedRevisionName;
  const latest = revisions.find((r) => r.metadata.name === latestName);
  const latestReady = latest ? conditionOf(latest, 'Ready') : undefined;
  const revisionMissing = [ready, configs].find((c) => c?.reason === 'RevisionMissing' || c?.reason === 'RevisionFailed');
  if (revisionMissing || (latest && latestReady?.status !== 'True')) {
    const revisionRef = latest ? refOf('Revision', ns, latest.metadata.name) : subject;
    out.push(
      finding('REVISION_MISSING', {
        subject: revisionRef,
        title: latest
          ? `Revision ${latest.metadata.name} is not ready${latestReady?.reason ? ` (${latestReady.reason})` : ''}`
          : `${ksvc.metadata.name} has no ready revision`,
        evidence: [
          ...(revisionMissing ? [{ kind: 'condition' as const, ref: subject, text: formatCondition(revisionMissing) }] : []),
          ...(latest ? revisionConditions(latest, ns) : []),
        ],
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
        remediation: await offerFix('raise-memory-limit', ctx, { component }),
        component,
        revision: latest.metadata.name,
      }),
    );
  }
  return out;
}

function revisionConditions(revision: Revision, ns: string) {
  const ref = refOf('Revision', ns, revision.metadata.name);
  return (revision.status?.conditions ?? [])
    .filter((c) => c.status !== 'True' && (c.type === 'Ready' || c.reason || c.message))
    .map((c) => ({ kind: 'condition' as const, ref, text: formatCondition(c) }));
}
