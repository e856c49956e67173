/**
 * Which pods of an InferenceService count as failed, so that a restart would delete them and their
 * ReplicaSet recreate them. The restart-pods action's offer (on the diagnosis' pods) and its plan
 * (on a fresh list) select with this, so the report names the pods the proposal will delete.
 *
 * A failed pod: not terminating, of the component (and revision, when given), and either Failed or
 * with a failing model container or storage-initializer (not an image pull problem, which a restart
 * does not change).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { componentOf, revisionOfPod } from '../kube/pod-labels.js';
import { containerFailures, isModelContainer, podStatusText, STORAGE_INITIALIZER } from '../kube/pod-status.js';
import type { FieldChange } from './field-changes.js';

const IMAGE_PROBLEMS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

export interface RestartSelection {
  component: string;
  /** Only pods of this Knative revision (or deployment), when set. */
  revision?: string;
}

/** What makes the pod count as failed ("storage-initializer Init:CrashLoopBackOff"), or null. */
export function podFailure(pod: V1Pod): string | null {
  if (pod.metadata?.deletionTimestamp) return null;
  const failing = containerFailures(pod).filter(
    (f) =>
      (f.container === STORAGE_INITIALIZER || isModelContainer(f.container)) &&
      !IMAGE_PROBLEMS.has(f.reason) &&
      !IMAGE_PROBLEMS.has(f.waiting ?? ''),
  );
  if (failing.length > 0)
    return `${podStatusText(pod)} (${failing.map((f) => `${f.container} ${f.reason}${f.exitCode !== undefined ? `, exit code ${f.exitCode}` : ''}`).join('; ')})`;
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
  return pods.map((p) => ({
    path: `pod ${p.metadata?.name ?? '?'}`,
    before: podFailure(p) ?? podStatusText(p),
    after: 'deleted (its ReplicaSet creates a new pod)',
  }));
}
