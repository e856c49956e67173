/**
 * A failed rollout (Serverless): a spec change made a new Knative revision that did not become
 * ready, while the previous ready revision still takes the traffic. Knative keeps a
 * `latestRevision: true` route on the latest *ready* revision, so the service still answers with
 * the old revision; what failed is the new one, for a cause of its own (its conditions, its pods).
 * The way out is to fix that cause or to roll the spec back to what the serving revision runs.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { finding } from '../findings/finding.js';
import type { Evidence, Finding } from '../findings/types.js';
import { conditionOf, formatCondition, refOf } from '../kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../kube/pod-labels.js';
import { containerFailures } from '../kube/pod-status.js';
import type { KnativeService, Revision } from '../kube/schemas.js';
import type { DiagnosisContext } from './playbook.js';
import { describeChanges, revisionChanges } from './revision-changes.js';

export interface FailedRollout {
  ksvc: KnativeService;
  /** The latest created revision, which did not become ready. */
  failed: Revision;
  /** The latest ready revision, which still takes `percent` of the traffic. */
  serving: string;
  percent: number;
}

/** A revision whose pods exist, none ready, and at least one failing (crash loop, init crash loop, …). */
export function revisionPodsFailing(pods: V1Pod[], revision: string | undefined): boolean {
  const own = pods.filter((p) => revisionOfPod(p) === revision);
  const ready = own.some((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  return own.length > 0 && !ready && own.some((p) => containerFailures(p).length > 0);
}

/**
 * The rollout of a Knative Service's latest created revision failed: that revision says Ready=False
 * (or all its pods fail) while the latest ready one, an older revision, still takes traffic. A new
 * revision still starting (Ready=Unknown, nothing failing yet) is a rollout in progress, not this.
 */
export function failedRollout(ksvc: KnativeService, revisions: Revision[], pods: V1Pod[]): FailedRollout | undefined {
  const created = ksvc.status?.latestCreatedRevisionName;
  const ready = ksvc.status?.latestReadyRevisionName;
  if (!created || !ready || created === ready) return undefined;
  const failed = revisions.find((r) => r.metadata.name === created);
  if (!failed) return undefined;
  if (conditionOf(failed, 'Ready')?.status !== 'False' && !revisionPodsFailing(pods, created)) return undefined;
  const percent = (ksvc.status?.traffic ?? [])
    .filter((t) => t.revisionName === ready)
    .reduce((sum, t) => sum + (t.percent ?? 0), 0);
  return percent > 0 ? { ksvc, failed, serving: ready, percent } : undefined;
}

export function rolloutFinding(ctx: DiagnosisContext, r: FailedRollout, revisions: Revision[], pods: V1Pod[]): Finding {
  const ns = ctx.target.namespace;
  const name = r.failed.metadata.name;
  const ksvcRef = refOf('Knative Service', ns, r.ksvc.metadata.name);
  const revRef = refOf('Revision', ns, name);
  const configs = conditionOf(r.ksvc, 'ConfigurationsReady');
  const ready = conditionOf(r.failed, 'Ready');
  const changed = revisionChanges(
    revisions.find((x) => x.metadata.name === r.serving),
    r.failed,
  );
  const causes = pods
    .filter((p) => revisionOfPod(p) === name)
    .flatMap((p) =>
      containerFailures(p).map(
        (f) =>
          `${p.metadata?.name}: ${f.container} ${f.reason}${f.exitCode !== undefined ? ` (exit ${f.exitCode})` : ''}, ${f.restarts} restarts`,
      ),
    );
  const evidence: Evidence[] = [
    {
      kind: 'field',
      ref: ksvcRef,
      text: `traffic: ${r.serving} (latest ready) ${r.percent}%; ${name} (latest created) not ready, no traffic`,
    },
    ...(configs && configs.status !== 'True'
      ? [{ kind: 'condition' as const, ref: ksvcRef, text: formatCondition(configs) }]
      : []),
    ...(ready ? [{ kind: 'condition' as const, ref: revRef, text: formatCondition(ready) }] : []),
    ...(changed.length
      ? [
          {
            kind: 'field' as const,
            ref: revRef,
            text: `changed since ${r.serving}: ${describeChanges(changed)}`,
          },
        ]
      : []),
    ...causes.slice(0, 3).map((text) => ({ kind: 'field' as const, ref: revRef, text: `its own cause: ${text}` })),
  ];
  return finding('ROLLOUT_FAILED', {
    subject: revRef,
    title: `The rollout of revision ${name} failed: ${r.serving} still serves ${r.percent}% of the traffic`,
    evidence,
    next: `fix what revision ${name} failed on, or roll back: kubectl edit inferenceservice ${ctx.target.name} -n ${ns}: ${
      changed.length
        ? `put back what ${r.serving} runs (${changed.map((c) => `${c.what} ${c.was}, not ${c.now}`).join('; ')})`
        : `put back the spec ${r.serving} was made from (kubectl get revision ${r.serving} -n ${ns} -o yaml shows it)`
    }`,
    component: componentOf(r.ksvc.metadata.labels),
    revision: name,
  });
}
