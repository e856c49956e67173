/** Unit tests: approval policy (users, groups, per-namespace lists, two-person rule) and rollout ops. */
import {
  approverIdsFor,
  decideApproval,
  decideRejection,
  isUserGroupId,
} from '../../../src/remediation/approval-policy.js';
import { parseRolloutOp, rolloutAction } from '../../../src/remediation/rollout-op.js';

const config = {
  approvers: ['U0GLOBAL', 'S0PLATFORM'],
  namespaceApprovers: { payments: ['U0PAY'] },
  twoPersonRule: false,
};
const groups = new Map([['S0PLATFORM', ['U0BOB']]]);
const ask = (user: string, namespace = 'default', requester = 'U0REQ', c = config) =>
  decideApproval({ config: c, namespace, user, requester, groupMembers: groups });

describe('approval policy', () => {
  it('allows listed users and members of listed user groups', () => {
    expect(ask('U0GLOBAL')).toEqual({ allowed: true });
    expect(ask('U0BOB')).toEqual({ allowed: true });
    expect(ask('U0MALLORY')).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
  });
  it('uses only the namespace list when the namespace has one', () => {
    expect(approverIdsFor(config, 'payments')).toEqual(['U0PAY']);
    expect(ask('U0PAY', 'payments')).toEqual({ allowed: true });
    expect(ask('U0GLOBAL', 'payments')).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
    expect(ask('U0PAY', 'default')).toMatchObject({ allowed: false });
  });
  it('the two-person rule keeps the requester from approving their own proposal', () => {
    const strict = { ...config, twoPersonRule: true };
    expect(ask('U0GLOBAL', 'default', 'U0GLOBAL', strict)).toMatchObject({ allowed: false, code: 'OWN_PROPOSAL' });
    expect(ask('U0GLOBAL', 'default', 'U0GLOBAL', config)).toEqual({ allowed: true });
    expect(ask('U0BOB', 'default', 'U0GLOBAL', strict)).toEqual({ allowed: true });
  });
  it('a group that could not be read grants nothing and the refusal says so (fail closed)', () => {
    const unread = { ...config, approvers: ['U0GLOBAL', 'S0GONE'] };
    const decision = ask('U0BOB', 'default', 'U0REQ', unread);
    expect(decision).toMatchObject({ allowed: false, code: 'APPROVER_GROUP_UNRESOLVED' });
    expect(decision.allowed === false && decision.message).toContain('S0GONE');
    // a user listed by id does not depend on the group
    expect(ask('U0GLOBAL', 'default', 'U0REQ', unread)).toEqual({ allowed: true });
    expect(
      decideRejection({
        config: unread,
        namespace: 'default',
        user: 'U0BOB',
        requester: 'U0REQ',
        groupMembers: groups,
      }),
    ).toMatchObject({ allowed: false, code: 'APPROVER_GROUP_UNRESOLVED' });
  });
  it('compares users with users: a click whose user id is an approver group id is refused', () => {
    expect(ask('S0PLATFORM')).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
    // even when the group's member list names the group itself, or the group could not be read
    const selfListed = new Map([['S0PLATFORM', ['U0BOB', 'S0PLATFORM']]]);
    expect(
      decideApproval({
        config,
        namespace: 'default',
        user: 'S0PLATFORM',
        requester: 'U0REQ',
        groupMembers: selfListed,
      }),
    ).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
    expect(
      decideApproval({ config, namespace: 'default', user: 'S0PLATFORM', requester: 'U0REQ', groupMembers: new Map() }),
    ).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
    expect(
      decideRejection({ config, namespace: 'default', user: 'S0PLATFORM', requester: 'U0REQ', groupMembers: groups }),
    ).toMatchObject({ allowed: false, code: 'NOT_APPROVER' });
  });
  it('the requester or an approver may reject', () => {
    expect(
      decideRejection({ config, namespace: 'default', user: 'U0REQ', requester: 'U0REQ', groupMembers: groups }),
    ).toEqual({ allowed: true });
    expect(
      decideRejection({ config, namespace: 'default', user: 'U0BOB', requester: 'U0REQ', groupMembers: groups }),
    ).toEqual({ allowed: true });
    expect(
      decideRejection({ config, namespace: 'default', user: 'U0X', requester: 'U0REQ', groupMembers: groups }),
    ).toMatchObject({ allowed: false });
  });
  it('tells user-group ids from user ids', () => {
    expect(isUserGroupId('S0123ABC')).toBe(true);
    expect(isUserGroupId('U0123ABC')).toBe(false);
  });
});

describe('rollout operations', () => {
  it.each([
    ['promote', { action: 'promote-canary', params: {} }],
    ['rollback', { action: 'rollback-canary', params: {} }],
    ['90/10', { action: 'set-canary-traffic', params: { canaryPercent: 10 } }],
    ['0/100', { action: 'set-canary-traffic', params: { canaryPercent: 100 } }],
  ])('%s', (word, expected) => {
    const op = parseRolloutOp(word);
    expect(typeof op).not.toBe('string');
    expect(rolloutAction(op as Exclude<typeof op, string>)).toEqual(expected);
  });
  it.each(['60/30', 'sideways', '100'])('refuses %s', (word) => {
    expect(typeof parseRolloutOp(word)).toBe('string');
  });
});
