/**
 * The state of a canary that is not ready, said before a change that sends it traffic ("canary
 * ranker-predictor-00002: 0 of 1 pods ready, CrashLoopBackOff, 4 restarts"): a promote or a larger
 * canary share of a failing canary says so in its proposal and its confirm dialog. Read from the
 * InferenceService's status and the revision's pods (those the diagnosis just read, else a list).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { podStatusText } from '../kube/pod-status.js';
import type { KubeObject } from '../kube/schemas.js';
import { rolloutView, type RevisionRow } from './rollout-view.js';
import type { ActionContext } from './types.js';

const REVISION_LABELS = [
  'serving.knative.dev/revision',
  'serving.knative.dev/service',
  'serving.knative.dev/configuration',
];

/** A Knative revision's pods, or (Standard mode) a Deployment's: KServe labels them app=isvc.<deployment>. */
const ofRevision = (name: string) => (pod: V1Pod) =>
  REVISION_LABELS.some((l) => pod.metadata?.labels?.[l] === name) || pod.metadata?.labels?.app === `isvc.${name}`;

async function podsOfRevision(ctx: ActionContext, row: RevisionRow): Promise<V1Pod[]> {
  const seen = ctx.seen?.pods(ctx.target.namespace)?.filter(ofRevision(row.name));
  if (seen && seen.length > 0) return seen;
  return (await ctx.writer.listPods(ctx.target.namespace, row.selector)).filter(ofRevision(row.name));
}

const isReady = (pod: V1Pod) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** "0 of 1 pods ready, CrashLoopBackOff, 4 restarts", or the status' reason when no pod is there. */
export function describeCanary(row: RevisionRow, pods: V1Pod[]): string {
  if (pods.length === 0) {
    const cause = row.cause?.replace(/\s+/g, ' ').trim();
    return `canary ${row.name} is not ready${cause ? `: ${cause.length > 200 ? `${cause.slice(0, 199)}…` : cause}` : ''}`;
  }
  const ready = pods.filter(isReady).length;
  const failing = pods.find((p) => !isReady(p));
  const restarts = pods
    .flatMap((p) => p.status?.containerStatuses ?? [])
    .reduce((n, s) => n + (s.restartCount ?? 0), 0);
  return [
    `canary ${row.name}: ${ready} of ${pods.length} pod${pods.length === 1 ? '' : 's'} ready`,
    ...(failing ? [podStatusText(failing)] : []),
    ...(restarts > 0 ? [`${restarts} restart${restarts === 1 ? '' : 's'}`] : []),
  ].join(', ');
}

/** The canary's state when it is not ready; null when there is no canary or it is ready. */
export async function failingCanaryState(ctx: ActionContext, live: KubeObject): Promise<string | null> {
  const row = rolloutView(live).revisions.find((r) => r.role === 'canary');
  if (row?.ready !== false) return null;
  const pods = await podsOfRevision(ctx, row).catch(() => []);
  return describeCanary(row, pods);
}
