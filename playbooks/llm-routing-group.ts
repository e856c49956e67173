/**
 * The routing group of an LLMInferenceService (KServe 0.20: `spec.router.route.group` and `weight`,
 * several services splitting one model's traffic by weight, as a canary): the namespace's members
 * read as the controller reads them (src/kube/llm-routing-group.ts). Two things go wrong without
 * Ready saying so. A member that is not Ready but keeps one ready replica stays routable and keeps
 * its share: said with its share and the members that are Ready, and taking it out of the split
 * (weight 0) is offered. A member that serves other model names is left out of this service's route
 * (GroupDegraded, outside the Ready rollup): the weights are not what is routed; said with each
 * member's model names, and the name to give it.
 *
 * The service's managed HTTPRoute (`NAME-kserve-route`, read by llm-router in the same wave) shows
 * what the gateway is told: its weighted backendRefs.
 *
 * RBAC: list llminferenceservices (serving.kserve.io), list httproutes, in the service's namespace.
 * Emits: LLM_GROUP_ROUTES_UNREADY_MEMBER, LLM_GROUP_MEMBER_DIVERGENT.
 */
import { LLM_KIND, arrAt, httpRoutes, objAt } from '../src/diagnosis/llm-objects.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { unlessForbidden } from '../src/diagnosis/unless-forbidden.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { formatCondition, refOf } from '../src/kube/inference-service-view.js';
import type { KubeObject } from '../src/kube/schemas.js';
import {
  llmCondition,
  divergentFrom,
  type GroupMember,
  type RoutingGroup,
  routedWith,
  routingGroup,
  routingGroupFromStatus,
  routingGroupOf,
  shareOf,
  statusMembersOf,
} from '../src/kube/llm-routing-group.js';
import { offerFix } from '../src/remediation/actions/index.js';

export const llmRoutingGroup: Playbook = {
  id: 'llm-routing-group',
  kind: 'llmisvc',
  title: "The LLMInferenceService's routing group: the members its traffic is split over",
  emits: ['LLM_GROUP_ROUTES_UNREADY_MEMBER', 'LLM_GROUP_MEMBER_DIVERGENT'],
  async run(ctx) {
    const self = ctx.target.isvc;
    if (!routingGroupOf(self)) return [];
    const fromStatus = routingGroupFromStatus(self);
    // a service that is not Ready: its own status says whom its route splits over, and that is enough;
    // a Ready one (is a member it routes to failing?) or a degraded group (who serves what?) reads the members
    const readMembers = fromStatus?.self.ready || llmCondition(self, 'GroupDegraded')?.status === 'True';
    const group = readMembers
      ? routingGroup(self, await unlessForbidden(ctx.reader.llmInferenceServices(ctx.target.namespace), []))
      : fromStatus;
    if (!group || group.self.stopped) return [];
    const routes = await unlessForbidden(httpRoutes(ctx.reader, ctx.target.namespace), []);
    const backends = routeBackends(ctx, routes);
    const found = [...(await unreadyRouted(ctx, group)), ...divergence(ctx, group)];
    return backends ? found.map((f) => ({ ...f, evidence: [...f.evidence, backends] })) : found;
  },
};

const pct = (n: number, total: number) => (total > 0 ? Math.round((100 * n) / total) : 0);
const names = (ms: readonly GroupMember[]) => ms.map((m) => m.name).join(', ');
const patchCommand = (ns: string, name: string, body: string) =>
  `kubectl patch llminferenceservice ${name} -n ${ns} --type merge -p '${body}'`;

/** The managed HTTPRoute's weighted backendRefs: "qwen3-coder-v1-inference-pool 9, qwen3-coder-v2-inference-pool 1". */
function routeBackends(ctx: DiagnosisContext, routes: readonly KubeObject[]): Evidence | undefined {
  const name = `${ctx.target.name}-kserve-route`;
  const route = routes.find((r) => r.metadata.name === name);
  if (!route) return undefined;
  const refs = arrAt(route.spec, 'rules').flatMap((rule) =>
    arrAt(rule, 'backendRefs').map((b) => `${String(objAt(b)?.name ?? '?')} ${String(objAt(b)?.weight ?? 1)}`),
  );
  const unique = [...new Set(refs)];
  if (!unique.length) return undefined;
  return {
    kind: 'field',
    ref: refOf('HTTPRoute', ctx.target.namespace, name),
    text: `backendRefs (weight): ${unique.join(', ')}`,
  };
}

/** What the controller wrote of the group in the service's own status: "a (weight 9), b (weight 1)". */
function statusMembers(ctx: DiagnosisContext): string | undefined {
  const members = statusMembersOf(ctx.target.isvc);
  return members.length
    ? members.map((m) => `${m.name} (weight ${m.weight}${m.stopped ? ', stopped' : ''})`).join(', ')
    : undefined;
}

async function unreadyRouted(ctx: DiagnosisContext, group: RoutingGroup): Promise<Finding[]> {
  const { namespace, name } = ctx.target;
  const routed = routedWith(group, group.self);
  // the members that take the share: Ready, or (not read) routed to by the controller
  const keeps = routed.filter((m) => m.ready !== false && !m.stopped && m.weight > 0);
  const out: Finding[] = [];
  for (const m of routed.filter((x) => x.ready === false && !x.stopped && x.weight > 0 && x.routable)) {
    const takers = keeps.filter((k) => k.name !== m.name);
    if (!takers.length) continue;
    const share = shareOf(m, routed);
    const ref = refOf(LLM_KIND, namespace, m.name);
    const listed = statusMembers(ctx);
    const evidence: Evidence[] = [
      // one line: why it is not Ready, and why the controller still routes to it
      {
        kind: 'field',
        ref,
        text: `${m.readyText}; status.workloads: ${m.workloads}, RouterReady True: still routed`,
      },
      {
        kind: 'field',
        ref,
        text: `spec.router.route.weight ${m.weight}: ${share.weight} of ${share.total} (${pct(share.weight, share.total)}%) of routing group ${group.name}'s traffic`,
      },
      ...takers.map(
        (k): Evidence => ({
          kind: 'field',
          ref: refOf(LLM_KIND, namespace, k.name),
          text:
            k.ready === true
              ? `Ready=True, spec.router.route.weight ${k.weight}`
              : `in ${name}'s status.router.group.members with weight ${k.weight}: the controller routes to it`,
        }),
      ),
      ...(listed
        ? [
            {
              kind: 'field' as const,
              ref: refOf(LLM_KIND, namespace, name),
              text: `status.router.group.members: ${listed}`,
            },
          ]
        : []),
    ];
    const itself = m.name === name;
    const remediation = await offerFix('set-llm-group-weight', ctx, {
      member: m.name,
      from: m.weight,
      keeps: takers[0]?.name ?? name,
      group: group.name,
    });
    out.push(
      finding('LLM_GROUP_ROUTES_UNREADY_MEMBER', {
        subject: ref,
        title: itself
          ? `${name} is not Ready but still takes ${pct(share.weight, share.total)}% of routing group ${group.name}'s traffic (weight ${m.weight} of ${share.total})`
          : `Routing group ${group.name} still sends ${pct(share.weight, share.total)}% of its traffic to ${m.name} (weight ${m.weight} of ${share.total}), which is not Ready`,
        evidence,
        remediation,
        next: `take ${m.name} out of the split: ${patchCommand(namespace, m.name, '{"spec":{"router":{"route":{"weight":0}}}}')} (${names(takers)} then take${takers.length === 1 ? 's' : ''} all of group ${group.name}'s traffic); fix ${m.name} (${itself ? 'the cause above' : `/isvc diagnose ${m.name}`}), then set its weight back to ${m.weight}`,
      }),
    );
  }
  return out;
}

function divergence(ctx: DiagnosisContext, group: RoutingGroup): Finding[] {
  const { namespace, name } = ctx.target;
  const self = group.self;
  const apart = divergentFrom(group, self);
  const degraded = llmCondition(ctx.target.isvc, 'GroupDegraded');
  if (!apart.length && degraded?.status !== 'True') return [];
  const selfRef = refOf(LLM_KIND, namespace, name);
  const evidence: Evidence[] = [
    ...(degraded ? [{ kind: 'condition' as const, ref: selfRef, text: formatCondition(degraded) }] : []),
    {
      kind: 'field',
      ref: selfRef,
      text: `serves ${self.models.join(', ')}; spec.router.route.weight ${self.weight}`,
    },
    ...apart.map(
      (m): Evidence => ({
        kind: 'field',
        ref: refOf(LLM_KIND, namespace, m.name),
        text: `serves ${m.models.join(', ')}; spec.router.route.weight ${m.weight}: left out of ${name}'s route`,
      }),
    ),
  ];
  const first = apart[0];
  const fix = !first
    ? undefined
    : first.specModel !== self.specModel
      ? `set spec.model.name of ${first.name} to ${self.specModel}: ${patchCommand(namespace, first.name, JSON.stringify({ spec: { model: { name: self.specModel } } }))}`
      : `give ${first.name} the same LoRA adapters as ${name} (spec.model.lora.adapters: ${self.models.filter((x) => x !== self.specModel).join(', ') || 'none'})`;
  return [
    finding('LLM_GROUP_MEMBER_DIVERGENT', {
      subject: first ? refOf(LLM_KIND, namespace, first.name) : selfRef,
      title: first
        ? `${names(apart)} of routing group ${group.name} serve${apart.length === 1 ? 's' : ''} ${first.models.join(', ')}, ${name} serves ${self.models.join(', ')}: left out of ${name}'s traffic split, whatever the weights`
        : `Routing group ${group.name} has members that serve other model names: the controller left them out of ${name}'s traffic split`,
      evidence,
      ...(fix
        ? {
            next: `${fix}, so that group ${group.name} splits ${self.specModel} by weight; or remove spec.router.route.group from ${first?.name} if it is meant to serve ${first?.models.join(', ')} on its own`,
          }
        : {}),
    }),
  ];
}
