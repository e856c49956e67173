import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { modelcarPullAdvice, modelcarSourceOf } from '../../../src/diagnosis/modelcar-image.js';
import type { DiagnosisContext } from '../../../src/diagnosis/playbook.js';
import { INFERENCE_SERVICE_VERSIONS } from '../../../src/kube/resources.js';

const URI = 'oci://quay.io/acme/llama-modelcar:1.0';
const pod = (annotations: Record<string, string> = {}, imagePullSecrets?: Array<{ name: string }>): V1Pod => ({
  metadata: { name: 'llama-predictor-abc', annotations },
  spec: { containers: [], serviceAccountName: 'models', ...(imagePullSecrets ? { imagePullSecrets } : {}) },
});
const ctx = {
  target: {
    namespace: 'ml',
    name: 'llama',
    resource: INFERENCE_SERVICE_VERSIONS[0]!,
    apiVersion: 'serving.kserve.io/v1beta1',
    isvc: {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'llama', namespace: 'ml' },
      spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, storageUri: URI } } },
    },
  },
  config: { knativeNamespace: 'knative-serving' },
} as unknown as DiagnosisContext;
const SOURCE = 'internal.serving.kserve.io/storage-initializer-sourceuri';

describe('the model image of an OCI modelcar', () => {
  it('is found by container name, or by the image the storageUri names', () => {
    const annotated = pod({ [SOURCE]: URI });
    expect(modelcarSourceOf(annotated, 'modelcar-init', 'quay.io/acme/llama-modelcar:1.0')).toBe(URI);
    expect(modelcarSourceOf(annotated, 'modelcar-1', 'quay.io/acme/other:2')).toBe('oci://quay.io/acme/other:2');
    // the status names docker.io images in full
    const hub = pod({ [SOURCE]: 'oci://rhuss/kserving-example-sklearn:1.0' });
    expect(modelcarSourceOf(hub, 'sidecar', 'docker.io/rhuss/kserving-example-sklearn:1.0')).toBe(
      'oci://rhuss/kserving-example-sklearn:1.0',
    );
    // the model server's own image is not the model
    expect(modelcarSourceOf(annotated, 'kserve-container', 'kserve/huggingfaceserver:v0.15.2')).toBeUndefined();
    expect(modelcarSourceOf(pod({ [SOURCE]: 's3://b/m' }), 'kserve-container', 'kserve/x:1')).toBeUndefined();
  });

  it('points a missing tag at the storageUri, not at a runtime image', () => {
    const advice = modelcarPullAdvice(
      ctx,
      pod(),
      { container: 'modelcar-init', image: 'quay.io/acme/llama-modelcar:1.0', uri: URI, component: 'predictor' },
      { tagMissing: true, unauthorized: false },
    );
    expect(advice.title).toContain('quay.io/acme/llama-modelcar has no tag 1.0');
    expect(advice.next).toContain('set spec.predictor.model.storageUri to oci://quay.io/acme/llama-modelcar');
    expect(advice.next).not.toMatch(/runtimeVersion|inferenceservice-config/);
  });

  it('names the registry, a secret for it and where the pod takes its pull secrets from', () => {
    const advice = modelcarPullAdvice(
      ctx,
      pod({}, [{ name: 'ghcr-pull' }]),
      { container: 'modelcar', image: 'quay.io/acme/llama-modelcar:1.0', uri: URI, component: 'predictor' },
      { tagMissing: false, unauthorized: true },
    );
    expect(advice.next).toContain('kubectl create secret docker-registry quay-io-pull -n ml --docker-server=quay.io');
    expect(advice.next).toContain('add name: quay-io-pull to spec.predictor.imagePullSecrets');
    expect(advice.next).toContain('kubectl patch serviceaccount models -n ml');
    expect(advice.next).toContain("the pod's ghcr-pull does not hold credentials quay.io accepts");
    expect(advice.evidence[0]?.text).toBe('serviceAccountName: models; imagePullSecrets: ghcr-pull');
  });
});
