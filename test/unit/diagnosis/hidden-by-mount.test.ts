import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { hiddenByMount } from '../../../src/diagnosis/hidden-by-mount.js';
import type { DiagnosisContext } from '../../../src/diagnosis/playbook.js';

const ctx = {
  target: {
    namespace: 'ns',
    name: 'm',
    apiVersion: 'serving.kserve.io/v1beta1',
    isvc: {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'm', namespace: 'ns' },
      spec: { predictor: { containers: [{ name: 'kserve-container', image: 'x' }] } },
    },
  },
  config: { knativeNamespace: 'knative-serving' },
} as unknown as DiagnosisContext;

const pod = (opts: { knative?: boolean; filledBy?: string; emptyDir?: boolean } = {}): V1Pod => ({
  metadata: {
    name: 'p',
    labels: opts.knative === false ? {} : { 'serving.knative.dev/revision': 'm-predictor-00001' },
  },
  spec: {
    containers: [{ name: 'kserve-container', volumeMounts: [{ name: 'knative-var-log', mountPath: '/var/log' }] }],
    initContainers: opts.filledBy
      ? [{ name: opts.filledBy, volumeMounts: [{ name: 'knative-var-log', mountPath: '/out' }] }]
      : [],
    volumes: [
      opts.emptyDir === false
        ? { name: 'knative-var-log', persistentVolumeClaim: { claimName: 'logs' } }
        : { name: 'knative-var-log', emptyDir: {} },
    ],
  },
});

const nginx = [
  'nginx: [alert] could not open error log file: open() "/var/log/nginx/error.log" failed (2: No such file or directory)',
];

describe('hiddenByMount', () => {
  it("names Knative's /var/log emptyDir and config-observability's key when a crash names a missing path under it", () => {
    const hidden = hiddenByMount(ctx, pod(), 'kserve-container', nginx, 'predictor');
    expect(hidden).toMatchObject({ path: '/var/log/nginx/error.log', by: 'Knative' });
    expect(hidden?.next).toContain('logging.enable-var-log-collection');
    expect(hidden?.next).toContain('create /var/log/nginx');
  });

  it('says to upgrade Knative where its release is older than 0.20 (mounted always)', () => {
    expect(hiddenByMount(ctx, pod(), 'kserve-container', nginx, 'predictor', 'v0.12.1')?.next).toMatch(
      /^Knative v0\.12\.1 mounts .*upgrade Knative to 0\.20/,
    );
  });

  it('says nothing of a volume an init container fills, of a claim, or of a line that names no missing path', () => {
    expect(hiddenByMount(ctx, pod({ filledBy: 'copier' }), 'kserve-container', nginx, 'predictor')).toBeUndefined();
    expect(hiddenByMount(ctx, pod({ emptyDir: false }), 'kserve-container', nginx, 'predictor')).toBeUndefined();
    expect(
      hiddenByMount(ctx, pod(), 'kserve-container', ['started, writing /var/log/app.log'], 'predictor'),
    ).toBeUndefined();
  });

  it('leaves alone a volume the InferenceService itself mounts there', () => {
    const own = {
      ...ctx,
      target: {
        ...ctx.target,
        isvc: {
          ...ctx.target.isvc,
          spec: {
            predictor: {
              containers: [{ name: 'kserve-container', volumeMounts: [{ name: 'logs', mountPath: '/var/log' }] }],
            },
          },
        },
      },
    } as DiagnosisContext;
    expect(hiddenByMount(own, pod(), 'kserve-container', nginx, 'predictor')).toBeUndefined();
  });

  it('outside Knative the mount is the pod’s, and the next step names it without Knative’s key', () => {
    const hidden = hiddenByMount(ctx, pod({ knative: false }), 'kserve-container', nginx, 'predictor');
    expect(hidden?.by).toBe('the pod');
    expect(hidden?.next).not.toContain('config-observability');
  });
});
