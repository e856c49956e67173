/**
 * Stopped on purpose (KServe 0.15+: the `serving.kserve.io/stop: "true"` annotation). KServe then
 * deletes the service's workloads (Deployment, Knative Service, routes), clears its status and
 * keeps `Stopped=True` and `PredictorReady=False (Stopped)`: the service is not ready because it is
 * stopped, not because something broke. Says so, with who set the annotation and when (the
 * managedFields entry that owns it: kubectl, a GitOps controller, a script), and how to resume;
 * and notes a half-way state (the annotation set but the controller not yet stopped it, or
 * removed while still Stopped: resuming).
 *
 * Offers resume-stopped-service (the annotation back to "false") unless a manager other than kubectl
 * owns the annotation (a GitOps controller would set it back: the next step says where to change it).
 *
 * RBAC: get inferenceservices (read by the runner).
 * Emits: ISVC_STOPPED.
 */
import type { Playbook } from '../src/diagnosis/playbook.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence } from '../src/findings/types.js';
import { conditionOf, deploymentModeName, formatCondition, refOf } from '../src/kube/inference-service-view.js';
import { stopState } from '../src/kube/stop-state.js';
import { offerFix } from '../src/remediation/actions/index.js';

export const stoppedService: Playbook = {
  id: 'stopped-service',
  title: 'The InferenceService is stopped on purpose',
  emits: ['ISVC_STOPPED'],
  async run(ctx) {
    const isvc = ctx.target.isvc;
    const state = stopState(isvc);
    if (!state.annotated && !state.stoppedCondition) return [];
    const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
    const by = state.setBy
      ? ` by ${state.setBy.manager}${state.setBy.operation ? ` (${state.setBy.operation})` : ''}${state.setBy.time ? ` at ${state.setBy.time}` : ''}`
      : '';
    const evidence: Evidence[] = [
      {
        kind: 'field',
        ref: subject,
        text: state.annotated
          ? `metadata.annotations: serving.kserve.io/stop: "${state.value}"${by ? `, set${by}` : ''}`
          : `metadata.annotations: serving.kserve.io/stop is ${state.value === undefined ? 'not set' : `"${state.value}"`}`,
      },
      ...(['Stopped', 'PredictorReady', 'Ready'] as const)
        .map((t) => conditionOf(isvc, t))
        .filter((c) => c !== undefined)
        .map((c) => ({ kind: 'condition' as const, ref: subject, text: formatCondition(c) })),
    ];
    const mode = deploymentModeName(isvc);
    if (mode) evidence.push({ kind: 'field', ref: subject, text: `status.deploymentMode: ${mode}` });
    const resume = `kubectl annotate inferenceservice ${ctx.target.name} -n ${ctx.target.namespace} serving.kserve.io/stop=false --overwrite`;
    const owner = state.setBy && !/^kubectl/.test(state.setBy.manager) ? state.setBy.manager : undefined;
    // set by kubectl (or no recorded manager): resuming is one approvable patch; an owner would revert it
    const remediation = await offerFix('resume-stopped-service', ctx, { owner });
    if (state.annotated && state.stoppedCondition) {
      return [
        finding('ISVC_STOPPED', {
          subject,
          title: `${ctx.target.name} is stopped on purpose (serving.kserve.io/stop: "true"${by}), not broken: KServe removed its workloads`,
          evidence,
          next: owner
            ? `To serve again, set serving.kserve.io/stop to "false" where ${owner} keeps this InferenceService (a kubectl change would be reverted by it); by hand: ${resume}`
            : `To serve again: ${resume} (KServe recreates the workloads; the model loads again)`,
          remediation,
        }),
      ];
    }
    if (state.annotated) {
      return [
        finding('ISVC_STOPPED', {
          subject,
          title: `${ctx.target.name} is being stopped: serving.kserve.io/stop is "true"${by}, the controller has not marked it Stopped yet`,
          evidence: [
            ...evidence,
            {
              kind: 'note',
              ref: subject,
              text: 'KServe before 0.15 ignores the annotation; from 0.15 the controller deletes the workloads and sets Stopped=True on its next reconcile',
            },
          ],
          next: `To keep it serving instead: ${resume}`,
          remediation,
        }),
      ];
    }
    return [
      finding('ISVC_STOPPED', {
        subject,
        title: `${ctx.target.name} is resuming: Stopped=True, but serving.kserve.io/stop is no longer "true"`,
        evidence,
        next: `kubectl get inferenceservice ${ctx.target.name} -n ${ctx.target.namespace} -w: KServe recreates the workloads; diagnose it again when the pods run`,
      }),
    ];
  },
};
