/**
 * Pods that never start: the scheduler cannot place them (insufficient cpu / memory / GPU, taints,
 * node selectors), or a ResourceQuota / LimitRange forbids creating them at all. The refusal's next
 * step comes from what refused: the LimitRange's bound against the component's resources field, the
 * containers of the pod template that lack what a quota requires (Knative's queue-proxy sidecar:
 * config-deployment), the quota's usage.
 *
 * RBAC: list pods, list events, list resourcequotas, list limitranges, list deployments.
 * Emits: POD_UNSCHEDULABLE, QUOTA_EXCEEDED.
 */
import type { CoreV1Event, V1Container, V1LimitRangeItem, V1Pod } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, isvcLabelSelector, podsOf } from '../src/diagnosis/related-objects.js';
import { serviceNextStepContext } from '../src/diagnosis/service-next-step-context.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { componentsOf, refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';

const QUOTA =
  /exceeded quota|forbidden: .*(quota|LimitRange|maximum .* usage|minimum .* usage)|must specify limits|must specify requests/i;

export const podScheduling: Playbook = {
  id: 'pod-scheduling',
  title: 'Pods cannot be scheduled or created',
  emits: ['POD_UNSCHEDULABLE', 'QUOTA_EXCEEDED'],
  async run(ctx) {
    const [pods, events] = await Promise.all([podsOf(ctx), eventsOf(ctx)]);
    const out: Finding[] = [];
    const pending = pods.find(
      (p) =>
        p.status?.phase === 'Pending' &&
        p.status.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'),
    );
    if (pending) {
      const name = pending.metadata?.name ?? '?';
      const subject = refOf('Pod', ctx.target.namespace, name);
      const cond = pending.status?.conditions?.find((c) => c.type === 'PodScheduled');
      const scheduling = events.filter((e) => e.involvedObject?.name === name && e.reason === 'FailedScheduling');
      const message = scheduling.at(-1)?.message ?? cond?.message ?? 'the scheduler found no node';
      const component = componentOf(pending.metadata?.labels);
      const advice = schedulingAdvice(ctx, pending, message, component);
      out.push(
        finding('POD_UNSCHEDULABLE', {
          subject,
          title: `Pod ${name} stays Pending: ${message}`,
          evidence: [
            ...(cond
              ? [
                  {
                    kind: 'condition' as const,
                    ref: subject,
                    text: `PodScheduled=False (${cond.reason ?? 'Unschedulable'}): ${cond.message ?? ''}`,
                  },
                ]
              : []),
            ...scheduling.slice(-2).map((e) => eventEvidence(ctx, e)),
            ...requestsEvidence(pending.spec?.containers ?? [], subject),
            ...advice.evidence,
          ],
          ...(advice.next ? { next: advice.next } : {}),
          component,
          revision: revisionOfPod(pending),
        }),
      );
    }
    const quotaEvents = events.filter((e) => e.reason === 'FailedCreate' && QUOTA.test(e.message ?? ''));
    if (quotaEvents.length > 0) out.push(await quotaFinding(ctx, quotaEvents));
    return out;
  },
};

/** Taints of cluster housekeeping (control plane, node conditions): not what a model's pod should tolerate. */
const SYSTEM_TAINT = /^node-role\.kubernetes\.io\/|^node\.kubernetes\.io\/|^node\.cloudprovider\.kubernetes\.io\//;

/**
 * What to change when the scheduler names taints the pod does not tolerate: a toleration for the
 * same key whose value or operator does not match (a GPU model's value against a generic taint), or
 * no toleration for it at all; with the tolerations the pod has as evidence.
 */
function schedulingAdvice(
  ctx: DiagnosisContext,
  pod: V1Pod,
  message: string,
  component: string | undefined,
): { evidence: Evidence[]; next?: string } {
  const taints = [...message.matchAll(/(?:untolerated taint|had taint)s?\(?s?\)? ?\{([^:}]+):\s*([^}]*)\}/g)]
    .map((m) => ({ key: m[1]!.trim(), value: m[2]!.trim() }))
    .filter((t) => !SYSTEM_TAINT.test(t.key));
  const insufficient = [
    ...new Set([...message.matchAll(/Insufficient ([\w./-]+)/g)].map((m) => m[1]!.replace(/\.+$/, ''))),
  ];
  const selector = /didn't match (?:Pod's )?node (?:affinity|selector)|node\(s\) didn't match node selector/.test(
    message,
  );
  const unboundClaims = /unbound immediate PersistentVolumeClaims|persistentvolumeclaim "[^"]+" not found/.test(
    message,
  );
  const tolerations = pod.spec?.tolerations ?? [];
  const ref = refOf('Pod', ctx.target.namespace, pod.metadata?.name ?? '?');
  const fields = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace);
  const edit = `kubectl edit inferenceservice ${ctx.target.name} -n ${ctx.target.namespace}`;
  const podField = (name: string) =>
    fields.fieldPath(component, 'serviceAccountName').replace(/serviceAccountName$/, name);
  const steps: string[] = taints.map((t) => {
    const same = tolerations.filter((x) => x.key === t.key);
    const taint = `${t.key}${t.value ? `=${t.value}` : ' (no value)'}`;
    if (same.length === 0)
      return `${edit}: in ${podField('tolerations')}, add a toleration {key: ${t.key}, operator: Exists, effect: NoSchedule} for the node taint ${taint}`;
    const shown = same
      .map((x) => `operator ${x.operator ?? 'Equal'}${x.value !== undefined ? `, value ${x.value}` : ''}`)
      .join('; ');
    return `${edit}: in ${podField('tolerations')}, the toleration for ${t.key} (${shown}) does not match the node taint ${taint}: make it {key: ${t.key}, operator: Exists} so it matches any value`;
  });
  // what no node has is only the cause when no taint or selector rules the other nodes out first
  if (insufficient.length && steps.length === 0)
    steps.push(
      `no node has the ${insufficient.join(', ')} the pod requests free: add nodes with it (or free some), or ${edit}: lower ${fields.fieldPath(component, 'resources')}.requests`,
    );
  if (selector && !taints.length)
    steps.push(
      `no node matches the pod's nodeSelector / affinity: ${edit}: fix ${podField('nodeSelector')} (kubectl get nodes --show-labels), or label the nodes meant for it`,
    );
  if (unboundClaims)
    steps.push(
      `a PersistentVolumeClaim the pod mounts is not bound: kubectl get pvc -n ${ctx.target.namespace} (its StorageClass must provision it, or a PersistentVolume must match it)`,
    );
  const evidence: Evidence[] = taints.length
    ? [
        {
          kind: 'field',
          ref,
          text: `tolerations: ${
            tolerations
              .filter((x) => !SYSTEM_TAINT.test(x.key ?? ''))
              .map(
                (x) =>
                  `${x.key ?? '*'} ${x.operator ?? 'Equal'}${x.value !== undefined ? ` ${x.value}` : ''}${x.effect ? ` ${x.effect}` : ''}`,
              )
              .join(', ') || 'none'
          }`,
        },
      ]
    : selector && pod.spec?.nodeSelector
      ? [
          {
            kind: 'field',
            ref,
            text: `nodeSelector: ${Object.entries(pod.spec.nodeSelector)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')}`,
          },
        ]
      : [];
  if (steps.length === 0) return { evidence };
  return { evidence, next: steps.join('; and ') };
}

function requestsEvidence(
  containers: Array<{
    name: string;
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  }>,
  ref: string,
): Evidence[] {
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
  const message = last.message ?? '';
  const owner = last.involvedObject?.name ?? '?';
  const component =
    /^-(predictor|transformer|explainer)(?:-|$)/.exec(owner.slice(ctx.target.name.length))?.[1] ?? 'predictor';
  const refusal = await refusalOf(ctx, message, component);
  return finding('QUOTA_EXCEEDED', {
    subject: refOf(last.involvedObject?.kind ?? 'ReplicaSet', ctx.target.namespace, owner),
    title: refusal.title ?? `A quota or LimitRange forbids the pods: ${message}`,
    // the first refusal (its own words) and the latest (how often since)
    evidence: [
      ...(events.length > 1 ? [eventEvidence(ctx, events[0]!)] : []),
      eventEvidence(ctx, last),
      ...refusal.evidence,
    ],
    component,
    ...(refusal.next ? { next: refusal.next } : {}),
  });
}

interface Refusal {
  title?: string;
  evidence: Evidence[];
  next?: string;
}

const LIMIT_RANGE_MAX =
  /(?<bound>maximum|minimum) (?<resource>[\w./-]+) usage per (?<scope>Container|Pod) is (?<allowed>[^,\s]+), but (?<kind>limit|request) is (?<asked>[^,\s]+)/;
const QUOTA_EXCEEDED = /exceeded quota: (?<quota>[a-z0-9.-]+)/;
const QUOTA_MUST_SPECIFY = /failed quota: (?<quota>[a-z0-9.-]+): must specify (?<what>.+)$/;

/** What refused the pods, read from the message and the object it names: the LimitRange's bound, the quota's usage, the containers a quota needs a request from. */
async function refusalOf(ctx: DiagnosisContext, message: string, component: string): Promise<Refusal> {
  const ns = ctx.target.namespace;
  const edit = `kubectl edit inferenceservice ${ctx.target.name} -n ${ns}`;
  const resources = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace).fieldPath(component, 'resources');
  const range = LIMIT_RANGE_MAX.exec(message)?.groups;
  if (range) {
    const ranges = await ctx.reader.limitRanges(ns).catch(() => []);
    const holder =
      ranges.find((r) =>
        (r.spec?.limits ?? []).some(
          (l) => l.type === range.scope && (range.bound === 'maximum' ? l.max : l.min)?.[range.resource!] !== undefined,
        ),
      ) ?? ranges[0];
    const name = holder?.metadata?.name ?? 'the LimitRange';
    const field = `${resources}.${range.kind === 'limit' ? 'limits' : 'requests'}.${range.resource}`;
    const defaults = (holder?.spec?.limits ?? []).find((l) => l.type === 'Container')?._default;
    return {
      title: `LimitRange ${name} allows a ${range.bound} of ${range.allowed} ${range.resource} per ${(range.scope ?? 'container').toLowerCase()}, but the ${component}'s ${range.kind} is ${range.asked}`,
      evidence: holder
        ? (holder.spec?.limits ?? []).map((l) => ({
            kind: 'field' as const,
            ref: refOf('LimitRange', ns, name),
            text: `${l.type}: ${limitRangeText(l)}`,
          }))
        : [],
      next: `${edit}: set ${field} to ${range.bound === 'maximum' ? 'at most' : 'at least'} ${range.allowed} (LimitRange ${name}${specSets(ctx, component, range.kind === 'limit' ? 'limits' : 'requests', range.resource!) ? '' : `; the spec sets none, so the controller's default applies${defaults ? ", not the LimitRange's default" : ''}`}), or change the ${range.bound}: kubectl edit limitrange ${name} -n ${ns}`,
    };
  }
  const must = QUOTA_MUST_SPECIFY.exec(message)?.groups;
  const quotaName = must?.quota ?? QUOTA_EXCEEDED.exec(message)?.groups?.quota;
  const quotas = await ctx.reader.resourceQuotas(ns).catch(() => []);
  const quota = quotas.find((q) => q.metadata?.name === quotaName) ?? (quotas.length === 1 ? quotas[0] : undefined);
  const name = quota?.metadata?.name ?? quotaName ?? 'the ResourceQuota';
  const usage: Evidence[] = quota
    ? Object.entries(quota.status?.hard ?? {}).map(([resource, hard]) => ({
        kind: 'field' as const,
        ref: refOf('ResourceQuota', ns, name),
        text: `${resource}: used ${quota.status?.used?.[resource] ?? '0'} of ${hard}`,
      }))
    : [];
  if (must) {
    const missing = await containersWithout(ctx, must.what!);
    const sidecars = missing.filter((c) => SIDECARS.has(c.container));
    const what = [...new Set(must.what!.split(/;\s*/).map((p) => p.replace(/\s+for:.*$/, '')))].join(', ');
    const evidence = [
      ...missing.map((m) => ({
        kind: 'field' as const,
        ref: m.ref,
        container: m.container,
        text: `${m.container} sets no ${m.resources.join(', ')}`,
      })),
      ...usage,
    ];
    const sidecarStep = sidecars.some((c) => c.container === 'queue-proxy')
      ? `queue-proxy (Knative's sidecar) sets no ${what}: set queueSidecarMemoryRequest / queueSidecarMemoryLimit (and the cpu ones) in the config-deployment ConfigMap of ${ctx.config.knativeNamespace} (Knative 0.16 or later), or give namespace ${ns} a LimitRange whose default fills it in`
      : sidecars.length
        ? `${sidecars.map((c) => c.container).join(', ')} (injected) set no ${what}: give namespace ${ns} a LimitRange whose default fills it in, or set it in the injector's configuration`
        : undefined;
    const own = missing.filter((c) => !SIDECARS.has(c.container));
    return {
      title: `ResourceQuota ${name} requires every container to set ${what}${missing.length ? `, and ${missing.map((m) => m.container).join(', ')} ${missing.length === 1 ? 'does' : 'do'} not` : ''}`,
      evidence,
      next: [
        sidecarStep,
        own.length || !sidecarStep
          ? `${edit}: set ${resources} (${what}) for ${own.map((c) => c.container).join(', ') || 'every container'}`
          : undefined,
      ]
        .filter(Boolean)
        .join('; and '),
    };
  }
  return {
    ...(quotaName ? { title: `ResourceQuota ${quotaName} forbids the pods: ${message}` } : {}),
    // the catalog's step reads the refusal's quota, request and usage from this evidence
    evidence: usage,
  };
}

/** Whether the component's spec sets that limit or request itself (else the controller fills in its default). */
function specSets(ctx: DiagnosisContext, component: string, kind: 'limits' | 'requests', resource: string): boolean {
  const view = componentsOf(ctx.target.isvc).find((c) => c.name === component && !c.canary);
  let at: unknown = ctx.target.isvc;
  for (const key of view?.resourcesPath ?? []) at = (at as Record<string, unknown> | undefined)?.[key];
  const set = (at as Record<string, Record<string, unknown> | undefined> | undefined)?.[kind];
  return set?.[resource] !== undefined;
}

function limitRangeText(l: V1LimitRangeItem): string {
  const parts = (['max', 'min', '_default', 'defaultRequest'] as const)
    .filter((k) => l[k] && Object.keys(l[k]!).length > 0)
    .map(
      (k) =>
        `${k === '_default' ? 'default' : k} ${Object.entries(l[k]!)
          .map(([r, v]) => `${r}=${v}`)
          .join(' ')}`,
    );
  return parts.join('; ') || 'no bounds';
}

/** Sidecars injected next to the model container: their resources come from their injector's configuration, not the spec. */
const SIDECARS = new Set([
  'queue-proxy',
  'istio-proxy',
  'agent',
  'storage-initializer',
  'istio-init',
  'istio-validation',
]);

/**
 * The containers of the service's pod template (its Deployments) that lack what a quota requires
 * ("memory", "limits.memory,requests.memory", or the containers a newer message names).
 */
async function containersWithout(
  ctx: DiagnosisContext,
  what: string,
): Promise<Array<{ ref: string; container: string; resources: string[] }>> {
  // "limits.cpu,limits.memory" or (newer) "limits.memory for: queue-proxy; requests.memory for: queue-proxy"
  const parts = what.split(/;\s*/).map((p) => {
    const [resources, names] = p.split(/\s+for:\s*/);
    return {
      resources: (resources ?? '')
        .split(/,\s*/)
        .map((r) => r.trim())
        .filter(Boolean),
      names: names?.split(/,\s*/).map((n) => n.trim()),
    };
  });
  const named = parts.some((p) => p.names) ? new Set(parts.flatMap((p) => p.names ?? [])) : undefined;
  const wanted = [...new Set(parts.flatMap((p) => p.resources))];
  const deployments = await ctx.reader
    .listKind('Deployment', ctx.target.namespace, isvcLabelSelector(ctx))
    .catch(() => []);
  const out: Array<{ ref: string; container: string; resources: string[] }> = [];
  for (const d of deployments) {
    const template = (
      d.spec as { template?: { spec?: { containers?: V1Container[]; initContainers?: V1Container[] } } } | undefined
    )?.template?.spec;
    for (const c of [...(template?.initContainers ?? []), ...(template?.containers ?? [])]) {
      const lacks = wanted.filter((w) => {
        const [kind, resource] = w.includes('.') ? (w.split('.', 2) as [string, string]) : ['requests', w];
        const set = kind === 'limits' ? c.resources?.limits : c.resources?.requests;
        return set?.[resource] === undefined && !(kind === 'requests' && c.resources?.limits?.[resource] !== undefined);
      });
      if ((named ? named.has(c.name) : lacks.length > 0) && !out.some((o) => o.container === c.name)) {
        out.push({
          ref: refOf('Deployment', ctx.target.namespace, d.metadata.name),
          container: c.name,
          resources: lacks.length ? lacks : wanted,
        });
      }
    }
  }
  return out;
}
