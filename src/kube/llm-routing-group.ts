/**
 * The routing group of an LLMInferenceService (KServe 0.20, `spec.router.route.group` and `weight`),
 * read as its controller reads it: the members are
 * the namespace's LLMInferenceServices of the same group that are not being deleted; each member's
 * HTTPRoute carries a weighted backendRef for every member that serves the same model set (the names
 * of status.addresses[].models, else spec.model.name and its LoRA adapters) and is routable, plus
 * itself always. Routable: RouterReady True and every workload the status lists (primary, prefill,
 * scheduler) with readyReplicas above 0; that is all it takes, so a member whose Ready is False with
 * one pod still ready keeps its share. A stopped member (`serving.kserve.io/stop: "true"`) stays in
 * the group at weight 0; a member with another model set is left out and the group reads
 * GroupDegraded=True (MemberDivergence), outside the Ready rollup. Pure: reads only the objects.
 */
import { isObj } from '../core/plain-object.js';
import { conditionOf, formatCondition } from './inference-service-view.js';
import type { Condition, KubeObject } from './schemas.js';
import { STOP_ANNOTATION } from './stop-state.js';

export interface GroupMember {
  name: string;
  /** spec.router.route.weight (0 when unset, as the controller reads it). */
  weight: number;
  /** The model names it serves, sorted: what the gateway routes on. */
  models: string[];
  /** spec.model.name (else its name): what a stopped member is matched on. */
  specModel: string;
  stopped: boolean;
  /** Ready=True; null when only the group status was read (a member the controller routes to). */
  ready: boolean | null;
  /** The controller's rule for sending it other members' traffic (see above). */
  routable: boolean;
  /** Why it is not ready: its Ready condition as "Ready=False (Reason): message". */
  readyText: string;
  /** status.workloads' replica counts, as "primary 1 ready" words. */
  workloads: string;
}

const at = (o: unknown, ...path: string[]): unknown => {
  let cur = o;
  for (const p of path) cur = isObj(cur) ? cur[p] : undefined;
  return cur;
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** spec.router.route.group, or undefined when the service is in no routing group. */
export function routingGroupOf(o: KubeObject): string | undefined {
  const g = at(o.spec, 'router', 'route', 'group');
  return typeof g === 'string' && g !== '' ? g : undefined;
}

const conditionsOf = (o: KubeObject) => ({
  status: { conditions: list(at(o.status, 'conditions')).filter(isObj) as unknown as Condition[] },
});

/** A condition of the object, or undefined. */
export function llmCondition(o: KubeObject, type: string): Condition | undefined {
  return conditionOf(conditionsOf(o), type);
}

/** "Ready=False (MinimumReplicasUnavailable): …", or "Ready: not reported". */
function conditionLine(o: KubeObject, type: string): string {
  const c = llmCondition(o, type);
  return c ? formatCondition(c) : `${type}: not reported`;
}

/** status.router.group.members as the controller wrote them: the members it routes the service's traffic to. */
export function statusMembersOf(o: KubeObject): Array<{ name: string; weight: number; stopped: boolean }> {
  return list(at(o.status, 'router', 'group', 'members'))
    .filter((m): m is Record<string, unknown> => isObj(m) && typeof m.name === 'string')
    .map((m) => ({
      name: String(m.name),
      weight: typeof m.weight === 'number' ? m.weight : 0,
      stopped: m.stopped === true,
    }));
}

function modelsOf(o: KubeObject): string[] {
  const fromStatus = list(at(o.status, 'addresses')).flatMap((a) =>
    list(at(a, 'models'))
      .map((m) => at(m, 'name'))
      .filter((n): n is string => typeof n === 'string'),
  );
  const names = fromStatus.length
    ? fromStatus
    : [
        String(at(o.spec, 'model', 'name') ?? o.metadata.name),
        ...list(at(o.spec, 'model', 'lora', 'adapters'))
          .map((a) => at(a, 'name'))
          .filter((n): n is string => typeof n === 'string'),
      ];
  return [...new Set(names)].sort();
}

const WORKLOADS = ['primary', 'prefill', 'scheduler'] as const;

export function groupMemberOf(o: KubeObject): GroupMember {
  const weight = at(o.spec, 'router', 'route', 'weight');
  const workloads = WORKLOADS.map((w) => [w, at(o.status, 'workloads', w)] as const).filter(([, s]) => isObj(s));
  const readyOf = (s: unknown) => {
    const n = at(s, 'readyReplicas');
    return typeof n === 'number' ? n : 0;
  };
  const routable =
    llmCondition(o, 'RouterReady')?.status === 'True' &&
    workloads.some(([w]) => w === 'primary') &&
    workloads.every(([, s]) => readyOf(s) > 0);
  return {
    name: o.metadata.name,
    weight: typeof weight === 'number' ? weight : 0,
    models: modelsOf(o),
    specModel: String(at(o.spec, 'model', 'name') ?? o.metadata.name),
    stopped: o.metadata.annotations?.[STOP_ANNOTATION]?.toLowerCase() === 'true',
    ready: llmCondition(o, 'Ready')?.status === 'True',
    routable,
    readyText: conditionLine(o, 'Ready'),
    workloads: workloads.length
      ? workloads.map(([w, s]) => `${w} ${readyOf(s)} ready`).join(', ')
      : 'no workload in status.workloads',
  };
}

export interface RoutingGroup {
  name: string;
  self: GroupMember;
  /** The other members, by name. */
  others: GroupMember[];
}

/**
 * The group as the service's own status records it (status.router.group.members: the members the
 * controller routes this service's traffic to, with their weights): no read of the other members.
 * Their readiness is not known (null); that they are listed says the controller found them routable
 * and serving the same model set.
 */
export function routingGroupFromStatus(self: KubeObject): RoutingGroup | undefined {
  const name = routingGroupOf(self);
  if (!name) return undefined;
  const me = groupMemberOf(self);
  const others = statusMembersOf(self)
    .filter((m) => m.name !== me.name)
    .map(
      (m): GroupMember => ({
        ...m,
        models: me.models,
        specModel: me.specModel,
        ready: null,
        routable: !m.stopped,
        readyText: 'Ready: not read',
        workloads: 'routed by the controller (status.router.group.members)',
      }),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
  return { name, self: me, others };
}

/** The group `self` belongs to, with the members among `all` (the namespace's LLMInferenceServices); undefined when in none. */
export function routingGroup(self: KubeObject, all: readonly KubeObject[]): RoutingGroup | undefined {
  const name = routingGroupOf(self);
  if (!name) return undefined;
  const others = all
    .filter((o) => o.metadata.name !== self.metadata.name && routingGroupOf(o) === name)
    .filter((o) => !o.metadata.deletionTimestamp)
    .map(groupMemberOf)
    .sort((a, b) => a.name.localeCompare(b.name));
  return { name, self: groupMemberOf(self), others };
}

const sameModels = (a: GroupMember, b: GroupMember) => a.models.join('\n') === b.models.join('\n');

/** The members a member's route splits traffic over (itself always; the others when they serve its models and are routable or stopped). */
export function routedWith(group: RoutingGroup, from: GroupMember): GroupMember[] {
  const all = [group.self, ...group.others];
  return all.filter(
    (m) => m.name === from.name || (m.stopped ? m.models.includes(from.specModel) : m.routable && sameModels(m, from)),
  );
}

/** The members that serve another model set than `from`: left out of its split. */
export function divergentFrom(group: RoutingGroup, from: GroupMember): GroupMember[] {
  return [group.self, ...group.others].filter((m) => m.name !== from.name && !m.stopped && !sameModels(m, from));
}

/** A member's share of a route's traffic: "3 of 10 (30%)"; a stopped member's weight counts 0. */
export function shareOf(member: GroupMember, over: readonly GroupMember[]): { weight: number; total: number } {
  const eff = (m: GroupMember) => (m.stopped ? 0 : m.weight);
  return { weight: eff(member), total: over.reduce((n, m) => n + eff(m), 0) };
}
