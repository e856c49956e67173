/**
 * Unit tests for the RBAC evaluator: rule matching (verbs, groups, resources, subresources,
 * wildcards, resourceNames), binding scope (ClusterRoleBinding everywhere, RoleBinding in its
 * namespace, Role vs ClusterRole refs), subjects, unused atoms, and copying per-namespace bindings.
 */
import {
  authorize,
  policyFromObjects,
  ruleAllows,
  unusedAtoms,
  withBindingsCopiedTo,
  type ResourceRequest,
} from '../../support/rbac/rbac-policy.js';

const SA = { name: 'bot', namespace: 'tools' };
const subject = { kind: 'ServiceAccount', name: 'bot', namespace: 'tools' };
const rbac = 'rbac.authorization.k8s.io/v1';

const objects = [
  {
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: { name: 'read' },
    rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }],
  },
  {
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'read' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'read' },
    subjects: [subject],
  },
  {
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: { name: 'write' },
    rules: [{ apiGroups: ['serving.kserve.io'], resources: ['inferenceservices'], verbs: ['patch'] }],
  },
  {
    apiVersion: rbac,
    kind: 'RoleBinding',
    metadata: { name: 'write', namespace: 'ml', labels: { 'x/per-namespace': 'true' } },
    roleRef: { kind: 'ClusterRole', name: 'write' },
    subjects: [subject],
  },
  {
    apiVersion: rbac,
    kind: 'Role',
    metadata: { name: 'cm', namespace: 'knative-serving' },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['config-deployment'], verbs: ['get', 'patch'] },
    ],
  },
  {
    apiVersion: rbac,
    kind: 'RoleBinding',
    metadata: { name: 'cm', namespace: 'knative-serving' },
    roleRef: { kind: 'Role', name: 'cm' },
    subjects: [subject],
  },
  // bound to someone else: grants the bot nothing
  {
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'other' },
    roleRef: { kind: 'ClusterRole', name: 'write' },
    subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'elsewhere' }],
  },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ignored' } },
];
const policy = policyFromObjects(objects);
const allowed = (req: ResourceRequest) => authorize(policy, SA, req) !== null;

describe('ruleAllows', () => {
  it('matches verbs, groups, resources and wildcards', () => {
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verb: 'get', group: '', resource: 'pods' },
      ),
    ).toBe(true);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verb: 'list', group: '', resource: 'pods' },
      ),
    ).toBe(false);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] },
        { verb: 'get', group: '', resource: 'pods' },
      ),
    ).toBe(false);
    expect(
      ruleAllows(
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verb: 'delete', group: 'x.io', resource: 'things/status' },
      ),
    ).toBe(true);
  });
  it('keeps subresources apart unless a pattern covers them', () => {
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verb: 'get', group: '', resource: 'pods/log' },
      ),
    ).toBe(false);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
        { verb: 'get', group: '', resource: 'pods/log' },
      ),
    ).toBe(true);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['*/log'] },
        { verb: 'get', group: '', resource: 'pods/log' },
      ),
    ).toBe(true);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
        { verb: 'get', group: '', resource: 'pods' },
      ),
    ).toBe(false);
  });
  it('with resourceNames, allows only requests naming one of them', () => {
    const rule = { verbs: ['get', 'create', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
    expect(ruleAllows(rule, { verb: 'get', group: '', resource: 'configmaps', name: 'a' })).toBe(true);
    expect(ruleAllows(rule, { verb: 'get', group: '', resource: 'configmaps', name: 'b' })).toBe(false);
    expect(ruleAllows(rule, { verb: 'create', group: '', resource: 'configmaps' })).toBe(false);
    expect(ruleAllows(rule, { verb: 'list', group: '', resource: 'configmaps' })).toBe(false);
  });
});

describe('authorize', () => {
  it('a ClusterRoleBinding grants in every namespace and at cluster scope', () => {
    expect(allowed({ verb: 'list', group: '', resource: 'pods', namespace: 'any' })).toBe(true);
    expect(allowed({ verb: 'list', group: '', resource: 'pods' })).toBe(true);
    expect(allowed({ verb: 'get', group: '', resource: 'pods/log', namespace: 'a', name: 'p' })).toBe(true);
  });
  it('a RoleBinding to a ClusterRole grants only in its namespace, never at cluster scope', () => {
    const patch = (namespace?: string): ResourceRequest => ({
      verb: 'patch',
      group: 'serving.kserve.io',
      resource: 'inferenceservices',
      name: 'm',
      ...(namespace ? { namespace } : {}),
    });
    expect(allowed(patch('ml'))).toBe(true);
    expect(allowed(patch('other'))).toBe(false);
    expect(allowed(patch())).toBe(false);
  });
  it('a RoleBinding to a Role uses the Role of its own namespace, with its resourceNames', () => {
    expect(
      allowed({
        verb: 'patch',
        group: '',
        resource: 'configmaps',
        namespace: 'knative-serving',
        name: 'config-deployment',
      }),
    ).toBe(true);
    expect(
      allowed({
        verb: 'patch',
        group: '',
        resource: 'configmaps',
        namespace: 'knative-serving',
        name: 'config-network',
      }),
    ).toBe(false);
    expect(
      allowed({ verb: 'patch', group: '', resource: 'configmaps', namespace: 'ml', name: 'config-deployment' }),
    ).toBe(false);
  });
  it('ignores bindings of other subjects and unknown roles', () => {
    expect(
      allowed({ verb: 'patch', group: 'serving.kserve.io', resource: 'inferenceservices', namespace: 'x', name: 'm' }),
    ).toBe(false);
    const dangling = policyFromObjects([
      {
        apiVersion: rbac,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'd' },
        roleRef: { kind: 'ClusterRole', name: 'missing' },
        subjects: [subject],
      },
    ]);
    expect(authorize(dangling, SA, { verb: 'get', group: '', resource: 'pods', namespace: 'a', name: 'p' })).toBeNull();
  });
  it('matches service-account groups', () => {
    const p = policyFromObjects([
      objects[0],
      { ...objects[1], subjects: [{ kind: 'Group', name: 'system:serviceaccounts:tools' }] },
    ]);
    expect(authorize(p, SA, { verb: 'list', group: '', resource: 'pods' })).not.toBeNull();
    expect(authorize(p, { name: 'bot', namespace: 'other' }, { verb: 'list', group: '', resource: 'pods' })).toBeNull();
  });
});

describe('unusedAtoms and per-namespace copies', () => {
  const requests: ResourceRequest[] = [
    { verb: 'get', group: '', resource: 'pods', namespace: 'a', name: 'p' },
    { verb: 'get', group: '', resource: 'pods/log', namespace: 'a', name: 'p' },
    { verb: 'get', group: '', resource: 'configmaps', namespace: 'knative-serving', name: 'config-deployment' },
  ];
  it('lists every verb × group × resource × name that no request uses', () => {
    expect(
      unusedAtoms(policy, SA, requests).map(
        (a) => `${a.verb} ${a.resource}${a.resourceName ? `/${a.resourceName}` : ''} (${a.binding})`,
      ),
    ).toEqual([
      'list pods (ClusterRoleBinding read)',
      'list pods/log (ClusterRoleBinding read)',
      'patch inferenceservices (RoleBinding ml/write)',
      'patch configmaps/config-deployment (RoleBinding knative-serving/cm)',
    ]);
  });
  it('does not count a request outside the binding scope as a use', () => {
    const used = unusedAtoms(policy, SA, [
      { verb: 'patch', group: 'serving.kserve.io', resource: 'inferenceservices', namespace: 'team-b', name: 'm' },
    ]);
    expect(used.some((a) => a.verb === 'patch' && a.resource === 'inferenceservices')).toBe(true);
  });
  it('copies labelled RoleBindings to more namespaces; a use through any copy counts', () => {
    const copied = withBindingsCopiedTo(policy, 'x/per-namespace', ['team-b', 'ml']);
    const req: ResourceRequest = {
      verb: 'patch',
      group: 'serving.kserve.io',
      resource: 'inferenceservices',
      namespace: 'team-b',
      name: 'm',
    };
    expect(authorize(policy, SA, req)).toBeNull();
    expect(authorize(copied, SA, req)).not.toBeNull();
    expect(copied.bindings.filter((b) => b.name === 'write').map((b) => b.namespace)).toEqual(['ml', 'team-b']);
    // only the labelled binding is copied
    expect(
      authorize(copied, SA, {
        verb: 'get',
        group: '',
        resource: 'configmaps',
        namespace: 'team-b',
        name: 'config-deployment',
      }),
    ).toBeNull();
    const unused = unusedAtoms(copied, SA, [req]);
    expect(unused.filter((a) => a.verb === 'patch' && a.resource === 'inferenceservices')).toEqual([]);
  });
});
