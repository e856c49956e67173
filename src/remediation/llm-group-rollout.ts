/**
 * `/isvc rollout NAME` for an LLMInferenceService (KServe 0.20 routing groups, src/kube/llm-routing-group.ts):
 * one row per member of its group as its own status records them (status.router.group.members: the
 * members the controller routes its traffic to) with the share its spec weight asks for and the
 * share it is routed (a member the controller does not route gets none, and the others split what
 * is left); the service itself is the canary row. Pure: reads only the object. The one operation
 * is a roll back: its weight to 0 (set-llm-group-weight), while another member takes the traffic.
 * Promote and a split change other members' weights, each its own object: the answer says the
 * exact patches instead.
 */
import { RemediationError } from '../changes/remediation-error.js';
import { type GroupMember, groupMemberOf, llmCondition, routingGroupFromStatus } from '../kube/llm-routing-group.js';
import type { KubeObject } from '../kube/schemas.js';
import type { ActionId } from './actions/index.js';
import type { RolloutOp } from './rollout-op.js';
import type { RevisionRow, RolloutView } from './rollout-view.js';

const eff = (m: GroupMember) => (m.stopped ? 0 : m.weight);
const pct = (n: number, total: number) => (total > 0 ? Math.round((100 * n) / total) : 0);
const selectorOf = (name: string) => `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name=${name}`;

export function llmGroupRolloutView(o: KubeObject): RolloutView {
  const self = groupMemberOf(o);
  const group = routingGroupFromStatus(o);
  const apiVersion = String(o.apiVersion ?? '');
  const splitField = `spec.router.route.weight${group ? ` (routing group ${group.name})` : ''}`;
  const readyCondition = llmCondition(o, 'Ready');
  const why = readyCondition?.message ?? readyCondition?.reason;
  const selfCause = self.ready || !why ? {} : { cause: why };
  if (!group || group.others.length === 0)
    return {
      apiVersion,
      canaryPercent: undefined,
      revisions: [
        {
          name: self.name,
          role: 'latest',
          specPercent: 100,
          statusPercent: 100,
          ready: self.ready,
          ...selfCause,
          selector: selectorOf(self.name),
        },
      ],
      lag: null,
      splitField,
      splitText: 'no routing group (spec.router.route.group): all of its traffic to it',
      ops: [],
    };
  const members = [self, ...group.others];
  const asked = members.reduce((n, m) => n + eff(m), 0);
  const routed = members.filter((m) => m.routable).reduce((n, m) => n + eff(m), 0);
  const rows: RevisionRow[] = members.map((m) => ({
    name: m.name,
    role: m === self ? 'canary' : 'stable',
    specPercent: pct(eff(m), asked),
    statusPercent: m.routable ? pct(eff(m), routed) : 0,
    ready: m === self ? self.ready : null,
    ...(m === self
      ? selfCause
      : {
          cause: `the controller routes to it (status.router.group.members, weight ${m.weight}); its Ready is not read`,
        }),
    selector: selectorOf(m.name),
  }));
  const behind = rows.filter((r) => r.specPercent !== r.statusPercent);
  const lag = behind.length
    ? `${behind.map((r) => `${r.name} gets ${r.statusPercent}% (spec ${r.specPercent}%)`).join(', ')}${self.routable ? '' : `: ${self.name} has no ready replica or router, so the controller leaves it out of the other members' routes`}`
    : null;
  return {
    apiVersion,
    canaryPercent: pct(eff(self), asked),
    revisions: rows,
    lag,
    splitField,
    splitText: `routing group ${group.name} by spec.router.route.weight: ${members.map((m) => `${m.name} ${eff(m)}${m.stopped ? ' (stopped)' : ''}`).join(', ')} of ${asked}`,
    ops: self.weight > 0 ? ['rollback'] : [],
  };
}

/** The action and params of an operation on an LLMInferenceService's rollout; a RemediationError says what to do instead. */
export function llmRolloutAction(op: RolloutOp, o: KubeObject): { action: ActionId; params: Record<string, unknown> } {
  const self = groupMemberOf(o);
  const group = routingGroupFromStatus(o);
  const ns = o.metadata.namespace ?? '';
  const others = group?.others.filter((m) => !m.stopped && m.weight > 0) ?? [];
  if (!group)
    throw new RemediationError(
      'REMEDIATION_NOT_APPLICABLE',
      `${self.name} is in no routing group (spec.router.route.group): it takes all of its own traffic`,
    );
  if (op.kind === 'rollback') {
    const keeps = others[0];
    if (!keeps)
      throw new RemediationError(
        'REMEDIATION_NOT_APPLICABLE',
        `no other member of routing group ${group.name} is routed with a weight above 0: weight 0 on ${self.name} would leave the group no backend`,
      );
    return {
      action: 'set-llm-group-weight',
      params: { member: self.name, group: group.name, from: self.weight, to: 0, keeps: keeps.name },
    };
  }
  const patch = (name: string, weight: number) =>
    `kubectl patch llminferenceservice ${name} -n ${ns} --type merge -p '{"spec":{"router":{"route":{"weight":${weight}}}}}'`;
  const how =
    op.kind === 'promote'
      ? others.map((m) => patch(m.name, 0)).join('; ')
      : others.length === 1 && others[0]
        ? `${patch(self.name, op.canaryPercent)}; ${patch(others[0].name, 100 - op.canaryPercent)}`
        : `set each member's spec.router.route.weight in proportion (weights are shares, not percents)`;
  throw new RemediationError(
    'REMEDIATION_NOT_APPLICABLE',
    `routing group ${group.name} splits by each member's weight, one object each: ${how || `${self.name} takes all traffic already`}`,
  );
}
