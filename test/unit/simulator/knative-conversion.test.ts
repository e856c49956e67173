/** Knative Serving's conversion webhook (0.13-0.18) for v1alpha1 objects and back. */
import { ConversionError, knativeConvert } from '../../../src/simulator/api-catalog/knative-conversion.js';
import type { KubeObject } from '../../../src/simulator/kube-object.js';

const template = {
  metadata: { annotations: { 'autoscaling.knative.dev/target': '1' } },
  spec: { containers: [{ image: 'model:1' }] },
};
const service = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'serving.knative.dev/v1alpha1',
  kind: 'Service',
  metadata: { name: 'flowers', namespace: 'default' },
  spec,
  ...(status ? { status } : {}),
});

describe('v1alpha1 → v1', () => {
  it('runLatest becomes the template with all traffic on the latest revision', () => {
    const v1 = knativeConvert(
      service({
        runLatest: {
          configuration: { revisionTemplate: { spec: { container: { image: 'model:1' }, concurrencyModel: 'Multi' } } },
        },
      }),
      'v1',
    );
    expect(v1.apiVersion).toBe('serving.knative.dev/v1');
    expect(v1.spec).toEqual({
      template: { spec: { containers: [{ image: 'model:1' }] } },
      traffic: [{ percent: 100, latestRevision: true }],
    });
  });

  it('release with two revisions splits traffic current / candidate and tags latest', () => {
    const v1 = knativeConvert(
      service({
        release: { revisions: ['flowers-00001', '@latest'], rolloutPercent: 10, configuration: { template } },
      }),
      'v1',
    );
    expect(v1.spec).toEqual({
      template,
      traffic: [
        { revisionName: 'flowers-00001', percent: 90, tag: 'current' },
        { percent: 10, tag: 'candidate', latestRevision: true },
        { tag: 'latest', latestRevision: true },
      ],
    });
  });

  it('inline form: traffic names become tags; status keeps Ready and the Service conditions, address gets a url', () => {
    const v1 = knativeConvert(
      service(
        { template, traffic: [{ name: 'prev', revisionName: 'flowers-00001', percent: 100 }] },
        {
          conditions: [
            { type: 'Ready', status: 'False' },
            { type: 'RoutesReady', status: 'False' },
            { type: 'Deprecated', status: 'True' },
          ],
          address: { hostname: 'flowers.default.svc.cluster.local' },
          traffic: [{ name: 'prev', revisionName: 'flowers-00001', percent: 100 }],
          latestReadyRevisionName: 'flowers-00001',
        },
      ),
      'v1',
    );
    expect(v1.spec).toEqual({ template, traffic: [{ revisionName: 'flowers-00001', percent: 100, tag: 'prev' }] });
    expect(v1.status).toEqual({
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'RoutesReady', status: 'False' },
      ],
      address: { url: 'http://flowers.default.svc.cluster.local' },
      traffic: [{ revisionName: 'flowers-00001', percent: 100, tag: 'prev' }],
      latestReadyRevisionName: 'flowers-00001',
    });
  });

  it('a Revision with one container gets containers; manual mode cannot convert', () => {
    const revision = knativeConvert(
      {
        apiVersion: 'serving.knative.dev/v1alpha1',
        kind: 'Revision',
        metadata: { name: 'r' },
        spec: { container: { image: 'i' }, serviceAccountName: 'sa', timeoutSeconds: 300 },
      },
      'v1',
    );
    expect(revision.spec).toEqual({ serviceAccountName: 'sa', containers: [{ image: 'i' }], timeoutSeconds: 300 });
    expect(() => knativeConvert(service({ manual: {} }), 'v1')).toThrow(ConversionError);
  });
});

describe('v1 → v1alpha1 and v1beta1', () => {
  const v1: KubeObject = {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Route',
    metadata: { name: 'flowers' },
    spec: { traffic: [{ tag: 'prev', revisionName: 'r1', percent: 100 }] },
    status: {
      address: { url: 'http://flowers.default.svc.cluster.local' },
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'IngressReady', status: 'True' },
      ],
    },
  };

  it('v1alpha1 keeps the spec, adds the address hostname', () => {
    const read = knativeConvert(v1, 'v1alpha1');
    expect(read.apiVersion).toBe('serving.knative.dev/v1alpha1');
    expect(read.spec).toEqual(v1.spec);
    expect((read.status as { address: unknown }).address).toEqual({
      url: 'http://flowers.default.svc.cluster.local',
      hostname: 'flowers.default.svc.cluster.local',
    });
  });

  it('v1beta1 is v1 under another name', () => {
    expect(knativeConvert(v1, 'v1beta1')).toEqual({ ...v1, apiVersion: 'serving.knative.dev/v1beta1' });
  });
});
