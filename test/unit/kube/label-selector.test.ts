import { describe, expect, it } from '@jest/globals';
import { matchesLabelSelector, unmetRequirements } from '../../../src/kube/label-selector.js';

describe('unmetRequirements', () => {
  const labels = { 'control-plane': 'kubeflow', team: 'ml' };

  it('names each requirement the labels fail, with the value they have for its key', () => {
    expect(
      unmetRequirements(
        {
          matchLabels: { 'serving.kubeflow.org/inferenceservice': 'enabled', team: 'ml' },
          matchExpressions: [
            { key: 'control-plane', operator: 'DoesNotExist' },
            { key: 'team', operator: 'NotIn', values: ['ml', 'ops'] },
            { key: 'tier', operator: 'Exists' },
            { key: 'team', operator: 'In', values: ['ml'] },
          ],
        },
        labels,
      ),
    ).toEqual([
      { key: 'serving.kubeflow.org/inferenceservice', operator: 'Equals', values: ['enabled'], actual: undefined },
      { key: 'control-plane', operator: 'DoesNotExist', values: [], actual: 'kubeflow' },
      { key: 'team', operator: 'NotIn', values: ['ml', 'ops'], actual: 'ml' },
      { key: 'tier', operator: 'Exists', values: [], actual: undefined },
    ]);
  });

  it('finds none for a matching or empty selector, as matchesLabelSelector agrees', () => {
    const selector = { matchExpressions: [{ key: 'control-plane', operator: 'Exists' }] };
    expect(unmetRequirements(selector, labels)).toEqual([]);
    expect(matchesLabelSelector(selector, labels)).toBe(true);
    expect(matchesLabelSelector(undefined, labels)).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { team: 'ops' } }, labels)).toBe(false);
  });
});
