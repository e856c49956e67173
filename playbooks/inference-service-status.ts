/**
 * InferenceService status (debug guide: "kubectl get inferenceservices sklearn-iris").
 *
 * Reads the InferenceService's own conditions and, on newer KServe, `modelStatus`: a model that
 * failed to load (FailedToLoad / ModelLoadFailed) or a model format no ServingRuntime supports is
 * a finding even when Ready says True.
 *
 * RBAC: get inferenceservices (read by the runner), list events, list servingruntimes / clusterservingruntimes.
 * Emits: ISVC_NOT_READY, MODEL_LOAD_FAILED, NO_SUPPORTING_RUNTIME.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { componentsOf, conditionOf, formatCondition, refOf } from '../src/kube/inference-service-view.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const NO_RUNTIME = /NoSupportingRuntime|RuntimeNotRecognized|No ServingRuntimes? or ClusterServingRuntimes?|does not support (the )?(specified )?(model )?(framework|format)|no runtime found|not supported by runtime|RuntimeDisabled/i;
const LOAD_FAILED = /ModelLoadFailed|FailedToLoad|failed to load model|model load failed/i;

export const inferenceServiceStatus: Playbook = {
  id: 'inference-service-status',
  title: 'InferenceService status and conditions',
  emits: ['ISVC_NOT_READY', 'MODEL_LOAD_FAILED', 'NO_SUPPORTING_RUNTIME'],
  async run(ctx) {
    const isvc = ctx.target.isvc;
    const ns = ctx.target.namespace;
    const subject = refOf('InferenceService', ns, ctx.target.name);
    const out: Finding[] = [];
    const conditions = isvc.status?.conditions ?? [];
    const ready = conditionOf(isvc, 'Ready');
    if (ready?.status !== 'True') {
      const failing = conditions.filter((c) => c.status !== 'True');
      // the latest warnings about it or anything it created: the evidence when no playbook knows more
      const warnings = (await eventsOf(ctx)).filter((e) => e.type === 'Warning').slice(-3);
      out.push(
        finding('ISVC_NOT_READY', {
          subject,
          title: `${ctx.target.name} is not ready${ready?.reason ? ` (${ready.reason})` : ready ? '' : ' (no Ready condition yet)'}`,
          evidence: [
            ...(failing.length ? failing : conditions).map((c) => ({ kind: 'condition' as const, ref: subject, text: formatCondition(c) })),
            ...warnings.map((e) => ({
              kind: 'event' as const,
              ref: refOf(e.involvedObject?.kind ?? 'Object', ns, e.involvedObject?.name ?? '?'),
              text: `${e.reason ?? ''}: ${e.message ?? ''}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
            })),
          ],
        }),
      );
    }
    const modelStatus = isObj(isvc.status?.modelStatus) ? isvc.status.modelStatus : {};
    const failure = isObj(modelStatus.lastFailureInfo) ? modelStatus.lastFailureInfo : undefined;
    const states = isObj(modelStatus.states) ? modelStatus.states : {};
    const failureText = failure ? `${String(failure.reason ?? '')}: ${String(failure.message ?? '')}` : '';
    const conditionText = conditions.map((c) => `${c.reason ?? ''} ${c.message ?? ''}`).join('\n');
    const modelEvidence: Evidence[] = [
      ...(failure ? [{ kind: 'field' as const, ref: subject, text: `modelStatus.lastFailureInfo: ${failureText}` }] : []),
      ...(modelStatus.transitionStatus ? [{ kind: 'field' as const, ref: subject, text: `modelStatus.transitionStatus: ${String(modelStatus.transitionStatus)}` }] : []),
      ...(states.activeModelState ? [{ kind: 'field' as const, ref: subject, text: `modelStatus.states.activeModelState: ${String(states.activeModelState)}` }] : []),
    ];
    if (NO_RUNTIME.test(failureText) || NO_RUNTIME.test(conditionText)) {
      out.push(await noRuntimeFinding(ctx, subject, modelEvidence, conditions.filter((c) => NO_RUNTIME.test(`${c.reason} ${c.message}`))));
    } else if (LOAD_FAILED.test(failureText) || states.activeModelState === 'FailedToLoad' || states.targetModelState === 'FailedToLoad' || LOAD_FAILED.test(conditionText)) {
      out.push(
        finding('MODEL_LOAD_FAILED', {
          subject,
          title: `The model failed to load${failure?.message ? `: ${String(failure.message)}` : ''}`,
          evidence: [
            ...modelEvidence,
            ...conditions.filter((c) => LOAD_FAILED.test(`${c.reason} ${c.message}`)).map((c) => ({ kind: 'condition' as const, ref: subject, text: formatCondition(c) })),
          ],
        }),
      );
    }
    return out;
  },
};

async function noRuntimeFinding(ctx: DiagnosisContext, subject: string, modelEvidence: Evidence[], conditions: Array<{ type: string; status?: string; reason?: string; message?: string }>): Promise<Finding> {
  const component = componentsOf(ctx.target.isvc).find((c) => c.name === 'predictor');
  const format = component?.modelFormat ?? 'unknown';
  const runtimes: Evidence[] = [];
  try {
    const [namespaced, cluster] = await Promise.all([ctx.reader.servingRuntimes(ctx.target.namespace), ctx.reader.clusterServingRuntimes()]);
    for (const [kind, list] of [['ServingRuntime', namespaced], ['ClusterServingRuntime', cluster]] as const) {
      for (const rt of list) {
        const formats = Array.isArray(rt.spec?.supportedModelFormats)
          ? (rt.spec.supportedModelFormats as Obj[]).map((f) => `${String(f.name)}${f.version ? `:${String(f.version)}` : ''}${f.autoSelect ? '*' : ''}`).join(', ')
          : '';
        runtimes.push({ kind: 'field', ref: refOf(kind, kind === 'ServingRuntime' ? ctx.target.namespace : undefined, rt.metadata.name), text: `supports ${formats || 'nothing listed'}` });
      }
    }
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
  }
  return finding('NO_SUPPORTING_RUNTIME', {
    subject,
    title: `No ServingRuntime supports model format "${format}"${component?.runtime ? ` with runtime ${component.runtime}` : ''}`,
    evidence: [
      { kind: 'field', ref: subject, text: `modelFormat: ${format}${component?.runtime ? `; runtime: ${component.runtime}` : ''}` },
      ...modelEvidence,
      ...conditions.map((c) => ({ kind: 'condition' as const, ref: subject, text: formatCondition({ ...c }) })),
      ...(runtimes.length ? runtimes.slice(0, 12) : [{ kind: 'note' as const, ref: subject, text: 'runtimes found: none' }]),
    ],
    component: 'predictor',
  });
}
