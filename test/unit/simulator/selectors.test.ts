import { ApiError } from '../../../src/simulator/api-error.js';
import { fieldSelectorMatcher, labelSelectorMatcher } from '../../../src/simulator/selectors.js';

const pod = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'p', namespace: 'ns', labels },
  ...extra,
});

describe('label selectors', () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['app=a', { app: 'a' }, true],
    ['app==a', { app: 'a' }, true],
    ['app=a', { app: 'b' }, false],
    ['app!=a', { app: 'b' }, true],
    ['app!=a', {}, true],
    ['app in (a, b)', { app: 'b' }, true],
    ['app in (a,b)', { app: 'c' }, false],
    ['app notin (a,b)', { app: 'c' }, true],
    ['app notin (a,b)', {}, true],
    ['app', { app: '' }, true],
    ['app', {}, false],
    ['!app', {}, true],
    ['!app', { app: 'x' }, false],
    ['app=a,tier in (web,api),!canary', { app: 'a', tier: 'api' }, true],
    ['app=a,tier in (web,api),!canary', { app: 'a', tier: 'api', canary: 'true' }, false],
    ['serving.kserve.io/inferenceservice=sklearn-iris', { 'serving.kserve.io/inferenceservice': 'sklearn-iris' }, true],
    ['', { any: 'thing' }, true],
  ];
  it.each(cases)('%s on %j → %s', (selector, labels, expected) => {
    expect(labelSelectorMatcher(selector)(pod(labels))).toBe(expected);
  });

  it('rejects a malformed selector with a 400', () => {
    expect(() => labelSelectorMatcher('app in (a')).toThrow(ApiError);
    try {
      labelSelectorMatcher('a b c');
    } catch (e) {
      expect((e as ApiError).code).toBe(400);
    }
  });
});

describe('field selectors', () => {
  const event = {
    metadata: { name: 'e1', namespace: 'ns' },
    involvedObject: { kind: 'Pod', name: 'p1', namespace: 'ns' },
    status: { phase: 'Running' },
  };
  it.each([
    ['metadata.name=e1', true],
    ['metadata.namespace==ns', true],
    ['involvedObject.name=p1,involvedObject.kind=Pod', true],
    ['involvedObject.kind!=Pod', false],
    ['status.phase=Running', true],
    ['status.phase!=Pending', true],
    ['spec.nodeName=', true],
  ])('%s → %s', (selector, expected) => {
    expect(fieldSelectorMatcher(selector)(event)).toBe(expected);
  });

  it('rejects a term without an operator', () => {
    expect(() => fieldSelectorMatcher('metadata.name')).toThrow(/invalid field selector/);
  });
});
