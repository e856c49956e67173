import { forbidden, isDenied } from '../../../src/simulator/access-rules.js';

describe('access rules', () => {
  const rules = [
    { verb: 'get', resource: 'pods/log', namespace: 'knative-serving' },
    { verb: 'list', resource: 'clusterrbacconfigs' },
    { verb: 'get', resource: 'inferenceservices.serving.kserve.io' },
  ];

  it('matches the exact verb, the resource with or without group, and the namespace when given', () => {
    expect(isDenied(rules, { verb: 'get', group: '', resource: 'pods/log', namespace: 'knative-serving' })).toBe(true);
    expect(isDenied(rules, { verb: 'get', group: '', resource: 'pods/log', namespace: 'default' })).toBe(false);
    expect(isDenied(rules, { verb: 'get', group: '', resource: 'pods', namespace: 'knative-serving' })).toBe(false);
    expect(isDenied(rules, { verb: 'list', group: 'rbac.istio.io', resource: 'clusterrbacconfigs' })).toBe(true);
    expect(isDenied(rules, { verb: 'watch', group: 'rbac.istio.io', resource: 'clusterrbacconfigs' })).toBe(false);
    expect(
      isDenied(rules, { verb: 'get', group: 'serving.kserve.io', resource: 'inferenceservices', namespace: 'x' }),
    ).toBe(true);
    expect(
      isDenied(rules, { verb: 'get', group: 'serving.kubeflow.org', resource: 'inferenceservices', namespace: 'x' }),
    ).toBe(false);
  });

  it('words the 403 like RBAC', () => {
    const error = forbidden({ verb: 'get', group: '', resource: 'pods/log', namespace: 'default', name: 'x' });
    expect(error.code).toBe(403);
    expect(error.message).toBe(
      'pods "x" is forbidden: User "system:serviceaccount:isvc-doctor:isvc-doctor" cannot get resource "pods/log" in API group "" in the namespace "default"',
    );
  });
});
