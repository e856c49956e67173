/**
 * The controller could not reconcile the InferenceService: often it has no status at all, or a
 * status frozen at the first reconcile while its pods are fine. The controller records a Warning
 * event (InternalError) on the InferenceService and logs the error; both are matched against the
 * signature catalog (`controller` entries): an admission webhook's refusal (Knative or Istio too
 * old for a field, a policy engine), a storageUri scheme the release does not support, no serving
 * runtime by the name or for the format / protocol asked (said with the runtimes that exist), an
 * API version the cluster does not serve, a permission the controller lacks. The controller's log
 * is read (bounded) only when the service is not ready and events, a missing status or healthy
 * pods point at the control plane. (Events of the objects that create its pods: workload-events.)
 * A Ready service is not trusted over the controller: Warning events on it newer than its Ready
 * condition mean the latest spec is refused while the old workload serves (Ready, but failing); with
 * a generation newer than status.observedGeneration or a deletion waiting on its finalizers, so are
 * the controller's log lines about it since then. An admission refusal that names a field the object
 * holds (an annotation whose value it quotes, the status field of the same name) is said with them.
 *
 * RBAC: list events, list services.serving.knative.dev; list pods in every namespace (the
 * controller's, by label), get pods/log; list servingruntimes / clusterservingruntimes.
 * Emits: CONTROLLER_RECONCILE_FAILED, ADMISSION_DENIED, STORAGE_URI_UNSUPPORTED, NO_SUPPORTING_RUNTIME.
 */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { controllerLinesAbout, controllerPods } from '../src/diagnosis/controller-lines.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, eventTime, knativeServicesOf, podsOf } from '../src/diagnosis/related-objects.js';
import { refusedChange, refusedChangeNext } from '../src/diagnosis/refused-change.js';
import { runtimeChoice, withRuntimeChoice } from '../src/diagnosis/runtime-choice.js';
import { signatureFindings, type LineSource } from '../src/diagnosis/signature-findings.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { conditionOf, isReady, refOf } from '../src/kube/inference-service-view.js';
import type { KnativeService } from '../src/kube/schemas.js';

/** Codes about the predictor's spec: merged with what the InferenceService's own status says. */
const COMPONENT_CODES = new Set(['NO_SUPPORTING_RUNTIME', 'STORAGE_URI_UNSUPPORTED']);

export const controllerReconcile: Playbook = {
  id: 'controller-reconcile',
  title: 'The controller cannot reconcile the InferenceService',
  emits: ['CONTROLLER_RECONCILE_FAILED', 'ADMISSION_DENIED', 'STORAGE_URI_UNSUPPORTED', 'NO_SUPPORTING_RUNTIME'],
  async run(ctx) {
    if (isReady(ctx.target.isvc)) return readyButRefused(ctx);
    // no status at all: the controller is where to look, so its pods are asked together with the rest
    const noStatus = !(ctx.target.isvc.status?.conditions ?? []).length;
    const [events, pods, services] = await Promise.all([
      eventsOf(ctx),
      podsOf(ctx),
      knativeServicesOf(ctx).catch(() => []),
      noStatus ? controllerPods(ctx) : [],
    ]);
    const warnings = events.filter(
      (e) =>
        e.type === 'Warning' &&
        e.involvedObject?.kind === 'InferenceService' &&
        e.involvedObject.name === ctx.target.name,
    );
    const controllers = lookAtController(ctx, warnings, pods, services)
      ? await controllerLinesAbout(ctx, ownedNames(ctx, services, pods))
      : [];
    const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
    const facts = versionFactsOf(ctx, pods, {
      images: controllers.flatMap((c) => (c.pod.spec?.containers ?? []).map((k) => k.image)),
    });
    const sources: LineSource[] = [
      ...(warnings.length ? [eventSource(subject, warnings)] : []),
      ...controllers.map((c) => ({
        where: 'controller' as const,
        ref: c.ref,
        kind: 'log' as const,
        container: c.container,
        label: `controller log lines about ${ctx.target.namespace}/${ctx.target.name}`,
        lines: c.lines,
        lineNumbers: c.lineNumbers,
      })),
    ];
    const found = sources.flatMap((source) => signatureFindings(ctx, source, { subject }, facts).findings);
    return Promise.all(found.map((f) => withComponent(ctx, withRefusedChange(ctx, f))));
  },
};

/**
 * A Ready service whose controller has failed since it became Ready: Ready describes what was applied
 * before the latest change (the old workload still serves), while the controller's Warning events
 * (InternalError) say it cannot apply the current spec. Those events decide, as for a service that is
 * not ready; each finding says since when it has been Ready and, when the status tells, which
 * generation was last applied. When the object says the controller still has work on it (a
 * generation newer than status.observedGeneration, or a deletion waiting on its finalizers), the
 * controller's log lines about it since it became Ready are read too: a refusal logged there and
 * never recorded as an event decides the same way.
 */
async function readyButRefused(ctx: DiagnosisContext): Promise<Finding[]> {
  const readySince = Date.parse(conditionOf(ctx.target.isvc, 'Ready')?.lastTransitionTime ?? '');
  const meta = ctx.target.isvc.metadata as { generation?: number; deletionTimestamp?: string; finalizers?: string[] };
  const observed = (ctx.target.isvc.status as { observedGeneration?: number } | undefined)?.observedGeneration;
  const staleGeneration = meta.generation !== undefined && observed !== undefined && observed < meta.generation;
  const deleting = meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).length > 0;
  const after = (t: number) => Number.isNaN(readySince) || Number.isNaN(t) || t > readySince;
  const since = (await eventsOf(ctx)).filter(
    (e) =>
      e.type === 'Warning' &&
      e.involvedObject?.kind === 'InferenceService' &&
      e.involvedObject.name === ctx.target.name &&
      after(eventTime(e)),
  );
  const controllers =
    staleGeneration || deleting
      ? await (async () => {
          const [pods, services] = await Promise.all([podsOf(ctx), knativeServicesOf(ctx).catch(() => [])]);
          return (await controllerLinesAbout(ctx, ownedNames(ctx, services, pods)))
            .map((c) => {
              const keep = c.lines.map((l) => after(lineTime(l)));
              return {
                ...c,
                lines: c.lines.filter((_, i) => keep[i]),
                lineNumbers: c.lineNumbers.filter((_, i) => keep[i]),
              };
            })
            .filter((c) => c.lines.length > 0);
        })()
      : [];
  if (since.length === 0 && controllers.length === 0) return [];
  const failures = since.reduce((n, e) => n + (e.count ?? 1), 0) + controllers.reduce((n, c) => n + c.lines.length, 0);
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const stale = staleGeneration ? `; it last applied generation ${observed} of ${meta.generation}` : '';
  const pending = deleting
    ? `; deletion requested at ${meta.deletionTimestamp} and still waiting on ${(meta.finalizers ?? []).join(', ')}`
    : '';
  const readyNote: Evidence = {
    kind: 'field',
    ref: subject,
    text: `Ready since ${Number.isNaN(readySince) ? 'an earlier reconcile' : new Date(readySince).toISOString()}, but the controller has failed ${failures === 1 ? 'once' : `${failures} times`} since${stale}${pending}: Ready describes the spec before the latest change`,
  };
  const sources: LineSource[] = [
    ...(since.length ? [eventSource(subject, since)] : []),
    ...controllers.map((c) => ({
      where: 'controller' as const,
      ref: c.ref,
      kind: 'log' as const,
      container: c.container,
      label: `controller log lines about ${ctx.target.namespace}/${ctx.target.name} since it became Ready`,
      lines: c.lines,
      lineNumbers: c.lineNumbers,
    })),
  ];
  const facts = versionFactsOf(ctx, [], {
    images: controllers.flatMap((c) => (c.pod.spec?.containers ?? []).map((k) => k.image)),
  });
  const found = sources.flatMap((source) => signatureFindings(ctx, source, { subject }, facts).findings);
  return Promise.all(
    found.map((f) => withComponent(ctx, withRefusedChange(ctx, { ...f, evidence: [readyNote, ...f.evidence] }))),
  );
}

/** A log line's time (zap's ts / time field, or a leading RFC 3339 stamp); NaN when it has none. */
function lineTime(line: string): number {
  const m = /"(?:ts|time)":\s*"([^"]+)"/.exec(line) ?? /^(\d{4}-\d\d-\d\dT[\d:.]+Z?)/.exec(line);
  if (m?.[1]) return Date.parse(m[1]);
  const epoch = /"ts":\s*(\d+(?:\.\d+)?)/.exec(line)?.[1];
  return epoch ? Number(epoch) * 1000 : Number.NaN;
}

/** An admission refusal that names a field the InferenceService holds: the next step sets it from the object. */
function withRefusedChange(ctx: DiagnosisContext, f: Finding): Finding {
  if (f.code !== 'ADMISSION_DENIED') return f;
  const r = refusedChange(ctx.target.isvc, f);
  if (!r) return f;
  const deleting = (ctx.target.isvc.metadata as { deletionTimestamp?: string }).deletionTimestamp !== undefined;
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  return {
    ...f,
    title: `The admission webhook ${r.webhook ?? ''} refuses the controller's updates of InferenceService ${ctx.target.name} itself: ${r.where} ${r.key} is ${r.value}${r.statusField ? `, ${r.statusField} is ${r.statusValue}` : ''}`,
    evidence: [
      ...f.evidence,
      {
        kind: 'field',
        ref: subject,
        text: `${r.where} ${r.key}: ${r.value}${r.statusField ? `; ${r.statusField}: ${r.statusValue}` : ''}`,
      },
    ],
    next: refusedChangeNext(r, ctx.target, deleting),
  };
}

/**
 * Events, no status at all, or healthy pods of a service that is not ready (unless Knative already
 * says its ingress is the hold-up): the control plane is where to look.
 */
function lookAtController(
  ctx: DiagnosisContext,
  warnings: CoreV1Event[],
  pods: V1Pod[],
  services: KnativeService[],
): boolean {
  if (warnings.length > 0 || !(ctx.target.isvc.status?.conditions ?? []).length) return true;
  if (services.some((s) => (s.status?.conditions ?? []).some((c) => c.reason === 'IngressNotConfigured'))) return false;
  return (
    pods.length > 0 && pods.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
  );
}

/** Names of the objects the service owns (by its UID), their revisions and pods: log lines naming them are about it. */
function ownedNames(ctx: DiagnosisContext, services: KnativeService[], pods: V1Pod[]): string[] {
  const uid = ctx.target.isvc.metadata?.uid;
  const ownedBy = (o: { metadata?: { ownerReferences?: Array<{ uid?: string }> } }) =>
    uid !== undefined && (o.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
  return [
    ...services
      .filter(ownedBy)
      .flatMap((s) => [s.metadata.name, s.status?.latestCreatedRevisionName, s.status?.latestReadyRevisionName]),
    ...pods.map((p) => p.metadata?.name),
  ].filter((n): n is string => n !== undefined);
}

/** One line per event (a multi-line message joined), the latest last. */
function eventSource(subject: string, events: CoreV1Event[]): LineSource {
  return {
    where: 'controller',
    ref: subject,
    kind: 'event',
    lines: events.map(
      (e) => `${(e.message ?? '').replace(/\s*\n+\s*/g, ' ')}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
    ),
  };
}

async function withComponent(ctx: DiagnosisContext, f: Finding): Promise<Finding> {
  if (!COMPONENT_CODES.has(f.code)) return f;
  const placed = { ...f, component: 'predictor' };
  return f.code === 'NO_SUPPORTING_RUNTIME' ? withRuntimeChoice(placed, await runtimeChoice(ctx)) : placed;
}
