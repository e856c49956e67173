/**
 * Who may approve or reject a proposal (pure). Approvers are Slack user ids or user-group ids
 * (`S…`), from `remediation.approvers[namespace]` when the namespace has an entry, otherwise the
 * top-level `approvers`. With the two-person rule on, the requester cannot approve their own
 * proposal. A proposal may be rejected by an approver or withdrawn by its requester.
 */
export interface ApprovalPolicyConfig {
  approvers: string[];
  namespaceApprovers: Record<string, string[]>;
  twoPersonRule: boolean;
}

export type Decision = { allowed: true } | { allowed: false; code: 'NOT_APPROVER' | 'OWN_PROPOSAL'; message: string };

/** Slack user-group ids start with S; user ids with U or W. */
export const isUserGroupId = (id: string): boolean => /^S[A-Z0-9]+$/.test(id);

export function approverIdsFor(config: ApprovalPolicyConfig, namespace: string): string[] {
  return config.namespaceApprovers[namespace] ?? config.approvers;
}

/** `groupMembers`: the members of the user groups among the approver ids (resolved by the caller). */
export function isApprover(user: string, approverIds: string[], groupMembers: ReadonlyMap<string, readonly string[]>): boolean {
  return approverIds.some((id) => id === user || (isUserGroupId(id) && (groupMembers.get(id) ?? []).includes(user)));
}

export function decideApproval(input: { config: ApprovalPolicyConfig; namespace: string; user: string; requester: string; groupMembers: ReadonlyMap<string, readonly string[]> }): Decision {
  const ids = approverIdsFor(input.config, input.namespace);
  if (!isApprover(input.user, ids, input.groupMembers)) {
    return { allowed: false, code: 'NOT_APPROVER', message: `only the approvers for namespace ${input.namespace} may approve remediations` };
  }
  if (input.config.twoPersonRule && input.user === input.requester) {
    return { allowed: false, code: 'OWN_PROPOSAL', message: 'the two-person rule is on: someone other than the requester must approve' };
  }
  return { allowed: true };
}

export function decideRejection(input: { config: ApprovalPolicyConfig; namespace: string; user: string; requester: string; groupMembers: ReadonlyMap<string, readonly string[]> }): Decision {
  if (input.user === input.requester) return { allowed: true };
  const ids = approverIdsFor(input.config, input.namespace);
  if (isApprover(input.user, ids, input.groupMembers)) return { allowed: true };
  return { allowed: false, code: 'NOT_APPROVER', message: `only the approvers for namespace ${input.namespace} or the requester may reject` };
}
