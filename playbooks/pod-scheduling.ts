/**
 * Pods that never start: the scheduler cannot place them (insufficient cpu / memory / GPU, taints,
 * node selectors), or a ResourceQuota / LimitRange forbids creating them at all.
 *
 * RBAC: list pods, list events, list resourcequotas.
 * Emits: POD_UNSCHEDULABLE, QUOTA_EXCEEDED.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';

const QUOTA = /exceeded quota|forbidden: .*(quota|LimitRange|maximum .* usage|minimum .* usage)|must specify limits|must specify requests/i;

export const podScheduling: Playbook = {
  id: 'pod-scheduling',
  title: 'Pods cannot be scheduled or created',
  emits: ['POD_UNSCHEDULABLE', 'QUOTA_EXCEEDED'],
  async run(ctx) {
    const [pods, events] = await Promise.all([podsOf(ctx), eventsOf(ctx)]);
    const out: Finding[] = [];
    const pending = pods.find((p) => p.status?.phase === 'Pending' && p.status.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'));
    if (pending) {
      const name = pending.metadata?.name ?? '?';
      const subject = refOf('Pod', ctx.target.namespace, name);
      const cond = pending.status?.conditions?.find((c) => c.type === 'PodScheduled');
      const scheduling = events.filter((e) => e.involvedObject?.name === name && e.reason === 'FailedScheduling');
      const message = scheduling.at(-1)?.message ?? cond?.message ?? 'the scheduler found no node';
      out.push(
        finding('POD_UNSCHEDULABLE', {
          subject,
          title: `Pod ${name} stays Pending: ${message}`,
          evidence: [
            ...(cond ? [{ kind: 'condition' as const, ref: subject, text: `PodScheduled=False (${cond.reason ?? 'Unschedulable'}): ${cond.message ?? ''}` }] : []),
            ...scheduling.slice(-2).map((e) => eventEvidence(ctx, e)),
            ...requestsEvidence(pending.spec?.containers ?? [], subject),
          ],
          component: componentOf(pending.metadata?.labels),
          revision: revisionOfPod(pending),
        }),
      );
    }
    const quotaEvents = events.filter((e) => e.reason === 'FailedCreate' && QUOTA.test(e.message ?? ''));
    if (quotaEvents.length > 0) out.push(await quotaFinding(ctx, quotaEvents));
    return out;
  },
};

function requestsEvidence(containers: Array<{ name: string; resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }>, ref: string): Evidence[] {
  return containers
    .filter((c) => c.resources?.requests || c.resources?.limits)
    .map((c) => ({
      kind: 'field' as const,
      ref,
      container: c.name,
      text: `${c.name} requests ${JSON.stringify(c.resources?.requests ?? {})}, limits ${JSON.stringify(c.resources?.limits ?? {})}`,
    }));
}

function eventEvidence(ctx: DiagnosisContext, e: CoreV1Event): Evidence {
  return {
    kind: 'event',
    ref: refOf(e.involvedObject?.kind ?? 'Object', ctx.target.namespace, e.involvedObject?.name ?? '?'),
    text: `${e.reason}: ${e.message}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
  };
}

async function quotaFinding(ctx: DiagnosisContext, events: CoreV1Event[]): Promise<Finding> {
  const last = events[events.length - 1]!;
  const quotaName = /exceeded quota: ([a-z0-9.-]+)/.exec(last.message ?? '')?.[1];
  const quotas = await ctx.reader.resourceQuotas(ctx.target.namespace).catch(() => []);
  const quota = quotas.find((q) => q.metadata?.name === quotaName) ?? (quotas.length === 1 ? quotas[0] : undefined);
  const usage: Evidence[] = quota
    ? Object.entries(quota.status?.hard ?? {}).map(([resource, hard]) => ({
        kind: 'field' as const,
        ref: refOf('ResourceQuota', ctx.target.namespace, quota.metadata?.name ?? '?'),
        text: `${resource}: used ${quota.status?.used?.[resource] ?? '0'} of ${hard}`,
      }))
    : [];
  return finding('QUOTA_EXCEEDED', {
    subject: refOf(last.involvedObject?.kind ?? 'ReplicaSet', ctx.target.namespace, last.involvedObject?.name ?? '?'),
    title: quotaName ? `ResourceQuota ${quotaName} forbids the pods: ${last.message}` : `A quota or LimitRange forbids the pods: ${last.message}`,
    // the first refusal (its own words) and the latest (how often since)
    evidence: [...(events.length > 1 ? [eventEvidence(ctx, events[0]!)] : []), eventEvidence(ctx, last), ...usage],
  });
}
