/**
 * Who may approve or reject a proposal (pure). Approvers are Slack user ids or user-group ids
 * (`S…`), from `remediation.approvers[namespace]` when the namespace has an entry, otherwise the
 * top-level `approvers`. Users are compared with user ids only: a click whose user id is a group id
 * matches nothing; groups count through their members, resolved by the caller. A group that could not
 * be resolved (absent from the members map) fails closed: anyone it might admit is refused, told why.
 * With the two-person rule on, the requester cannot approve their own proposal. A proposal may be
 * rejected by an approver or withdrawn by its requester.
 */
export interface ApprovalPolicyConfig {
  approvers: string[];
  namespaceApprovers: Record<string, string[]>;
  twoPersonRule: boolean;
}

/** `approvers`: who may decide instead (user and user-group ids), told to the one refused. */
export type Decision =
  | { allowed: true }
  | {
      allowed: false;
      code: 'NOT_APPROVER' | 'OWN_PROPOSAL' | 'APPROVER_GROUP_UNRESOLVED';
      message: string;
      approvers?: string[];
    };

/** Slack user-group ids start with S; user ids with U or W. */
export const isUserGroupId = (id: string): boolean => /^S[A-Z0-9]+$/.test(id);

export function approverIdsFor(config: ApprovalPolicyConfig, namespace: string): string[] {
  return config.namespaceApprovers[namespace] ?? config.approvers;
}

/** `groupMembers`: the members of the user groups among the approver ids (resolved by the caller). */
export function isApprover(
  user: string,
  approverIds: string[],
  groupMembers: ReadonlyMap<string, readonly string[]>,
): boolean {
  if (isUserGroupId(user)) return false;
  return approverIds.some((id) => (isUserGroupId(id) ? (groupMembers.get(id) ?? []).includes(user) : id === user));
}

/** Not an approver: NOT_APPROVER, or APPROVER_GROUP_UNRESOLVED when a group that might hold the user could not be read. */
function notApprover(
  user: string,
  ids: string[],
  groupMembers: ReadonlyMap<string, readonly string[]>,
  message: string,
): Decision {
  const unresolved = isUserGroupId(user) ? [] : ids.filter((id) => isUserGroupId(id) && !groupMembers.has(id));
  if (unresolved.length > 0)
    return {
      allowed: false,
      code: 'APPROVER_GROUP_UNRESOLVED',
      message: `the members of approver group ${unresolved.join(', ')} could not be read from Slack (usergroups.users.list), so membership cannot be checked; try again in a minute or ask an approver listed by user id`,
      approvers: ids,
    };
  return { allowed: false, code: 'NOT_APPROVER', message, approvers: ids };
}

export function decideApproval(input: {
  config: ApprovalPolicyConfig;
  namespace: string;
  user: string;
  requester: string;
  groupMembers: ReadonlyMap<string, readonly string[]>;
}): Decision {
  const ids = approverIdsFor(input.config, input.namespace);
  if (!isApprover(input.user, ids, input.groupMembers))
    return notApprover(
      input.user,
      ids,
      input.groupMembers,
      `only the approvers for namespace ${input.namespace} may approve remediations`,
    );
  if (input.config.twoPersonRule && input.user === input.requester) {
    return {
      allowed: false,
      code: 'OWN_PROPOSAL',
      message: 'the two-person rule is on: someone other than the requester must approve',
    };
  }
  return { allowed: true };
}

export function decideRejection(input: {
  config: ApprovalPolicyConfig;
  namespace: string;
  user: string;
  requester: string;
  groupMembers: ReadonlyMap<string, readonly string[]>;
}): Decision {
  if (input.user === input.requester) return { allowed: true };
  const ids = approverIdsFor(input.config, input.namespace);
  if (isApprover(input.user, ids, input.groupMembers)) return { allowed: true };
  return notApprover(
    input.user,
    ids,
    input.groupMembers,
    `only the approvers for namespace ${input.namespace} or the requester may reject`,
  );
}
