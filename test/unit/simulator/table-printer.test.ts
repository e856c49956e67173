import type { KubeObject } from '../../../src/simulator/kube-object.js';
import { ResourceRegistry } from '../../../src/simulator/resource-registry.js';
import { toTable, wantsTable } from '../../../src/simulator/table-printer.js';

const registry = new ResourceRegistry();
const KUBECTL_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const now = Date.parse('2024-03-01T12:00:00Z');

describe('Table output', () => {
  it('recognises the Accept header kubectl get sends', () => {
    expect(wantsTable(KUBECTL_ACCEPT)).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    expect(wantsTable('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json')).toBe(
      false,
    );
  });

  it('prints InferenceServices with URL, READY and traffic', () => {
    const isvc = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'x', namespace: 'ns', creationTimestamp: '2024-03-01T11:00:00Z' },
      status: {
        url: 'http://x',
        conditions: [{ type: 'Ready', status: 'False' }],
        components: {
          predictor: {
            traffic: [
              { tag: 'prev', percent: 90, revisionName: 'x-predictor-00001' },
              { latestRevision: true, percent: 10, revisionName: 'x-predictor-00002' },
            ],
          },
        },
      },
    } as KubeObject;
    const table = toTable(registry.ensure('serving.kserve.io/v1beta1', 'InferenceService'), [isvc], {
      resourceVersion: '7',
      includeObject: 'Metadata',
      now,
    }) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[]; object: { kind: string; metadata: { namespace: string } } }[];
      metadata: { resourceVersion: string };
    };
    expect(table.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      'Name',
      'URL',
      'Ready',
      'Prev',
      'Latest',
      'PrevRolledoutRevision',
      'LatestReadyRevision',
      'Age',
    ]);
    expect(table.rows[0]!.cells).toEqual([
      'x',
      'http://x',
      'False',
      90,
      10,
      'x-predictor-00001',
      'x-predictor-00002',
      '60m',
    ]);
    expect(table.rows[0]!.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { namespace: 'ns' } });
    expect(table.metadata.resourceVersion).toBe('7');
  });

  it('prints NAME and AGE for other kinds, with the full object or none on request', () => {
    const cm = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't', creationTimestamp: '2024-03-01T11:59:30Z' },
    } as KubeObject;
    const type = registry.ensure('example.com/v1', 'Thing');
    const full = toTable(type, [cm], { resourceVersion: '1', includeObject: 'Object', now }) as {
      rows: { cells: unknown[]; object?: unknown }[];
    };
    expect(full.rows[0]).toEqual({ cells: ['t', '30s'], object: cm });
    const none = toTable(type, [cm], { resourceVersion: '1', includeObject: 'None', now }) as {
      rows: { object?: unknown }[];
    };
    expect(none.rows[0]!.object).toBeUndefined();
  });
});
