import { describe, expect, it } from '@jest/globals';
import { lacksBestEffortProbes } from '../../../playbooks/ingress-probes.js';
import { parseGatewayRef } from '../../../playbooks/request-flow.js';
import { registryOf } from '../../../playbooks/tag-resolution.js';
import { formatMemory, parseMemory } from '../../../src/core/memory-quantity.js';
import { nameError } from '../../../src/core/names.js';
import { closeNames } from '../../../src/diagnosis/close-names.js';

describe('small helpers', () => {
  it('knows which Knative releases lack best-effort probes', () => {
    expect(['v0.10.0', 'v0.11.1', 'v0.12.1', 'v0.13.0'].map(lacksBestEffortProbes)).toEqual([true, true, true, true]);
    expect(['v0.11.2', 'v0.14.0', 'v1.10.1', 'garbage'].map(lacksBestEffortProbes)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('parses gateway references in both notations', () => {
    expect(parseGatewayRef('knative-ingress-gateway.knative-serving', 'default')).toEqual({
      name: 'knative-ingress-gateway',
      namespace: 'knative-serving',
    });
    expect(parseGatewayRef('kubeflow/kubeflow-gateway', 'default')).toEqual({
      name: 'kubeflow-gateway',
      namespace: 'kubeflow',
    });
    expect(parseGatewayRef('my-gateway', 'ns')).toEqual({ name: 'my-gateway', namespace: 'ns' });
  });

  it('finds the registry of an image', () => {
    expect(registryOf('123456789012.dkr.ecr.us-west-2.amazonaws.com/my-model:v1')).toBe(
      '123456789012.dkr.ecr.us-west-2.amazonaws.com',
    );
    expect(registryOf('kserve/sklearnserver:v0.11.0')).toBe('index.docker.io');
    expect(registryOf('localhost:5000/m:1')).toBe('localhost:5000');
  });

  it('suggests close names', () => {
    expect(closeNames('sklearn-irsi', ['sklearn-iris', 'sklearn-iris-v2', 'flowers'])).toEqual([
      'sklearn-iris',
      'sklearn-iris-v2',
    ]);
    expect(closeNames('xyz', ['flowers'])).toEqual([]);
  });

  it('doubles memory quantities in readable units', () => {
    expect(parseMemory('256Mi')).toBe(256 * 1024 * 1024);
    expect(formatMemory(parseMemory('256Mi')! * 2)).toBe('512Mi');
    expect(formatMemory(parseMemory('1Gi')! * 2)).toBe('2Gi');
    expect(parseMemory('lots')).toBeUndefined();
  });

  it('rejects names that are not DNS-1123 labels', () => {
    expect(nameError('sklearn-iris', 'name')).toBeNull();
    expect(nameError('Sklearn_Iris', 'name')).toMatch(/not a valid name/);
    expect(nameError('a'.repeat(64), 'name')).toMatch(/at most 63 characters/);
  });
});

describe('probeStatusOf', () => {
  it('reads the status the prober got, not the one it wanted', async () => {
    const { probeStatusOf } = await import('../../../playbooks/ingress-probes.js');
    expect(probeStatusOf('error: unexpected status code: want [200], got 403 (depth: 0)')).toBe(403);
    expect(probeStatusOf('[2020-02-11T18:16:21.420Z] "GET / HTTP/1.1" 302 UAEX "-" "-" 0 269 21 21')).toBe(302);
    expect(probeStatusOf('"GET / HTTP/1.1" 404 NR "-"')).toBe(404);
    expect(probeStatusOf('Reconcile succeeded')).toBeUndefined();
  });
});
