/**
 * The restart remediation (issue 4: CRASH_LOOP, STORAGE_* "after the cause is fixed"): which pods of
 * an InferenceService count as failed and would be deleted so their ReplicaSet recreates them, and
 * the finding-level offer the playbooks attach. The same selection runs in the diagnosis (on the
 * memoised reader's pods) and in the `restart-pods` action's plan (on a fresh list), so the report
 * names the pods the proposal will delete.
 *
 * A failed pod: not terminating, of the component (and revision, when given), and either Failed or
 * with a failing model container or storage-initializer (not an image pull problem, which a restart
 * does not change).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { containerFailures, isModelContainer, podStatusText, STORAGE_INITIALIZER } from '../kube/pod-status.js';
import { refOf } from '../kube/inference-service-view.js';
import { diffLines } from '../remediation/field-changes.js';
import type { FieldChange } from '../remediation/types.js';
import type { DiagnosisContext } from './playbook.js';
import { componentOf, revisionOfPod } from './related-objects.js';
import type { Remediation } from '../findings/types.js';

export const RESTART_ACTION = 'restart-pods';

const IMAGE_PROBLEMS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'CreateContainerConfigError', 'CreateContainerError']);

export interface RestartSelection {
  component: string;
  /** Only pods of this Knative revision (or deployment), when set. */
  revision?: string;
}

/** What makes the pod count as failed ("storage-initializer Init:CrashLoopBackOff"), or null. */
export function podFailure(pod: V1Pod): string | null {
  if (pod.metadata?.deletionTimestamp) return null;
  const failing = containerFailures(pod).filter((f) => (f.container === STORAGE_INITIALIZER || isModelContainer(f.container)) && !IMAGE_PROBLEMS.has(f.reason) && !IMAGE_PROBLEMS.has(f.waiting ?? ''));
  if (failing.length > 0) return `${podStatusText(pod)} (${failing.map((f) => `${f.container} ${f.reason}${f.exitCode !== undefined ? `, exit code ${f.exitCode}` : ''}`).join('; ')})`;
  if (pod.status?.phase === 'Failed') return `Failed${pod.status.reason ? ` (${pod.status.reason})` : ''}`;
  return null;
}

/** The failed pods of the selection, sorted by name. */
export function restartablePods(pods: V1Pod[], sel: RestartSelection): V1Pod[] {
  return pods
    .filter((p) => (componentOf(p.metadata?.labels) ?? 'predictor') === sel.component)
    .filter((p) => !sel.revision || revisionOfPod(p) === sel.revision)
    .filter((p) => podFailure(p) !== null)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** One line per pod to delete, as the proposal shows it: before its state, after "deleted". */
export function podDeletions(pods: V1Pod[]): FieldChange[] {
  return pods.map((p) => ({ path: `pod ${p.metadata?.name ?? '?'}`, before: podFailure(p) ?? podStatusText(p), after: 'deleted (its ReplicaSet creates a new pod)' }));
}

export const RESTART_RISK_NOTE =
  'It only helps after the cause is fixed (the model uploaded, the credentials granted, the code or image repaired): the new pods run the same spec and fail the same way otherwise. Deleting a pod also drops its logs, including the failed instance\'s (`kubectl logs --previous`).';

/** The offer for a finding about failing pods; null when none of them would be deleted. */
export function restartRemediation(ctx: DiagnosisContext, pods: V1Pod[], sel: RestartSelection): Remediation | null {
  const failed = restartablePods(pods, sel);
  if (failed.length === 0) return null;
  const names = failed.map((p) => p.metadata?.name ?? '?');
  return {
    action: RESTART_ACTION,
    summary: `After fixing the cause: restart ${failed.length} failed ${sel.component} pod${failed.length === 1 ? '' : 's'} (delete ${failed.length === 1 ? 'it' : 'them'} so ${failed.length === 1 ? 'it is' : 'they are'} recreated)`,
    target: refOf('Pod', ctx.target.namespace, names.join(', ')),
    diff: diffLines(podDeletions(failed)),
    needsApproval: true,
    params: { component: sel.component, ...(sel.revision ? { revision: sel.revision } : {}) },
  };
}
