/**
 * InferenceService status (debug guide: "kubectl get inferenceservices sklearn-iris").
 *
 * Reads the InferenceService's own conditions and, on newer KServe, `modelStatus`, and matches
 * them against the signature catalog (`condition` entries): a model that failed to load
 * (FailedToLoad / ModelLoadFailed) or a model format no ServingRuntime supports is a finding even
 * when Ready says True. When the Knative objects are missing or the bot may not read them, the
 * RevisionMissing / RevisionFailed the InferenceService copied from them is still listed.
 *
 * RBAC: get inferenceservices (read by the runner), list events, list servingruntimes /
 * clusterservingruntimes, list services.serving.knative.dev.
 * Emits: ISVC_NOT_READY, MODEL_LOAD_FAILED, NO_SUPPORTING_RUNTIME, REVISION_MISSING, POD_UNSCHEDULABLE.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, knativeServicesOf } from '../src/diagnosis/related-objects.js';
import { runtimeChoice, withRuntimeChoice } from '../src/diagnosis/runtime-choice.js';
import { signatureFindings } from '../src/diagnosis/signature-findings.js';
import { finding } from '../src/findings/finding.js';
import type { Finding } from '../src/findings/types.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { conditionOf, deploymentMode, formatCondition, refOf } from '../src/kube/inference-service-view.js';
import type { Condition } from '../src/kube/schemas.js';
import { stopState } from '../src/kube/stop-state.js';
import { isObj, type PlainObject as Obj } from '../src/core/plain-object.js';

const REVISION_MISSING = /^Revision(Missing|Failed)$/;

export const inferenceServiceStatus: Playbook = {
  id: 'inference-service-status',
  title: 'InferenceService status and conditions',
  emits: ['ISVC_NOT_READY', 'MODEL_LOAD_FAILED', 'NO_SUPPORTING_RUNTIME', 'REVISION_MISSING', 'POD_UNSCHEDULABLE'],
  async run(ctx) {
    const out: Finding[] = [];
    // a service stopped on purpose is not ready because it is stopped (stopped-service says so)
    const stopped = stopState(ctx.target.isvc);
    if (conditionOf(ctx.target.isvc, 'Ready')?.status !== 'True' && !stopped.annotated && !stopped.stoppedCondition)
      out.push(await notReadyFinding(ctx));
    out.push(...(await statusFindings(ctx)));
    out.push(...(await copiedRevisionMissing(ctx)));
    return out;
  },
};

async function notReadyFinding(ctx: DiagnosisContext): Promise<Finding> {
  const isvc = ctx.target.isvc;
  const ns = ctx.target.namespace;
  const subject = refOf('InferenceService', ns, ctx.target.name);
  const conditions = isvc.status?.conditions ?? [];
  const ready = conditionOf(isvc, 'Ready');
  const failing = conditions.filter((c) => c.status !== 'True');
  // the latest warnings about it or anything it created: the evidence when no playbook knows more
  const warnings = (await eventsOf(ctx)).filter((e) => e.type === 'Warning').slice(-3);
  const why = ready?.reason
    ? ` (${ready.reason})`
    : ready
      ? ''
      : isvc.status
        ? ' (no Ready condition yet)'
        : ' (no status: the controller has not reconciled it)';
  // no status at all: only the controller's log says why it did not reconcile it
  const next = isvc.status
    ? undefined
    : `kubectl logs -n kserve -l control-plane=kserve-controller-manager -c manager --tail=400 | grep ${ctx.target.name} (KFServing: -n kfserving-system or kubeflow, control-plane=kfserving-controller-manager): the controller's error for ${ns}/${ctx.target.name}`;
  return finding('ISVC_NOT_READY', {
    subject,
    title: `${ctx.target.name} is not ready${why}`,
    ...(next ? { next } : {}),
    evidence: [
      ...(failing.length ? failing : conditions).map((c) => ({
        kind: 'condition' as const,
        ref: subject,
        text: formatCondition(c),
      })),
      ...warnings.map((e) => ({
        kind: 'event' as const,
        ref: refOf(e.involvedObject?.kind ?? 'Object', ns, e.involvedObject?.name ?? '?'),
        text: `${e.reason ?? ''}: ${e.message ?? ''}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
      })),
    ],
  });
}

/** One line per condition that is not True, and per modelStatus fact: what `condition` signatures read. */
export function statusLines(ctx: DiagnosisContext): string[] {
  const status = ctx.target.isvc.status;
  const modelStatus = isObj(status?.modelStatus) ? status.modelStatus : {};
  const failure = isObj(modelStatus.lastFailureInfo) ? modelStatus.lastFailureInfo : undefined;
  const states = isObj(modelStatus.states) ? modelStatus.states : {};
  return [
    ...(status?.conditions ?? []).filter((c) => c.status !== 'True').map((c) => formatCondition(c)),
    ...(failure
      ? [`modelStatus.lastFailureInfo: ${String(failure.reason ?? '')}: ${String(failure.message ?? '')}`]
      : []),
    ...(modelStatus.transitionStatus ? [`modelStatus.transitionStatus: ${String(modelStatus.transitionStatus)}`] : []),
    ...(['activeModelState', 'targetModelState'] as const)
      .filter((k) => states[k])
      .map(
        (k) =>
          `modelStatus.states.${k}: ${String(states[k])}${modelStatus.transitionStatus ? ` (transitionStatus: ${String(modelStatus.transitionStatus)})` : ''}`,
      ),
  ];
}

async function statusFindings(ctx: DiagnosisContext): Promise<Finding[]> {
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const lines = statusLines(ctx);
  const source = { where: 'condition' as const, ref: subject, kind: 'condition' as const, lines };
  const { findings, matches } = signatureFindings(
    ctx,
    source,
    { subject, component: 'predictor' },
    versionFactsOf(ctx, []),
  );
  // every status line a finding rests on, not only the deciding one; modelStatus lines are fields, not conditions
  const kindOf = (text: string | undefined) =>
    text?.startsWith('modelStatus.') ? ('field' as const) : ('condition' as const);
  const withLines = findings.map((f) => {
    const more = matches.filter((m) => m.entry.code === f.code && !f.evidence.some((e) => e.text === m.line));
    const evidence = [...f.evidence, ...more.map((m) => ({ kind: 'condition' as const, ref: subject, text: m.line }))];
    return { ...f, evidence: evidence.map((e) => (e.kind === 'condition' ? { ...e, kind: kindOf(e.text) } : e)) };
  });
  return Promise.all(
    withLines.map(async (f) =>
      f.code === 'NO_SUPPORTING_RUNTIME' ? withRuntimeChoice(f, await runtimeChoice(ctx)) : f,
    ),
  );
}

/**
 * KServe copies RevisionMissing / RevisionFailed from the Knative Service into the
 * InferenceService's conditions: listed as REVISION_MISSING when the Knative objects that would
 * say it themselves are missing or may not be read.
 */
async function copiedRevisionMissing(ctx: DiagnosisContext): Promise<Finding[]> {
  if (deploymentMode(ctx.target.isvc) !== 'Serverless') return [];
  const copied = (ctx.target.isvc.status?.conditions ?? []).filter(
    (c) => c.status !== 'True' && REVISION_MISSING.test(c.reason ?? ''),
  );
  if (copied.length === 0) return [];
  try {
    if ((await knativeServicesOf(ctx)).length > 0) return [];
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
  }
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const components = ctx.target.isvc.status?.components ?? {};
  return (['predictor', 'transformer', 'explainer'] as const)
    .map((component) => ({ component, conditions: copied.filter((c) => componentOfCondition(c) === component) }))
    .filter(({ conditions }) => conditions.length > 0)
    .map(({ component, conditions }) => {
      const revision =
        revisionNamed(conditions) ??
        (isObj(components[component]) ? (components[component] as Obj).latestCreatedRevision : undefined);
      return finding('REVISION_MISSING', {
        subject: typeof revision === 'string' ? refOf('Revision', ctx.target.namespace, revision) : subject,
        title: `${typeof revision === 'string' ? `Revision ${revision}` : `The ${component}'s revision`} is not ready (${conditions[0]!.reason}, as the InferenceService reports it)`,
        evidence: conditions.map((c) => ({ kind: 'condition' as const, ref: subject, text: formatCondition(c) })),
        component,
        ...(typeof revision === 'string' ? { revision } : {}),
      });
    });
}

function componentOfCondition(c: Condition): string {
  const m = /^(?:Default|Canary)?(Predictor|Transformer|Explainer)/.exec(c.type);
  return m ? m[1]!.toLowerCase() : 'predictor';
}

function revisionNamed(conditions: Condition[]): string | undefined {
  for (const c of conditions) {
    const m = /Revision "([^"]+)"/.exec(c.message ?? '');
    if (m) return m[1];
  }
  return undefined;
}
