/**
 * tag-resolution on a Knative Revision whose tag Knative's controller cannot resolve to a digest: the
 * condition's words decide; a registry that refuses the controller is fixed by skipping tag resolution
 * for it in config-deployment (offered, with what the ConfigMap holds now), a tag that does not exist
 * is not (skipping would not help).
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { tagResolution } from './tag-resolution.js';

const TARGET = { namespace: 'ml', name: 'fraud' };
const IMAGE = '123456789012.dkr.ecr.us-east-1.amazonaws.com/fraud/scorer:1.2';
const REGISTRY = '123456789012.dkr.ecr.us-east-1.amazonaws.com';
const UNAUTHORIZED = `Unable to fetch image "${IMAGE}": failed to resolve image to digest: GET https://${REGISTRY}/v2/fraud/scorer/manifests/1.2: unexpected status code 401 Unauthorized: Not Authorized`;
const NO_TAG = `Unable to fetch image "${IMAGE}": failed to resolve image to digest: GET https://${REGISTRY}/v2/fraud/scorer/manifests/1.2: MANIFEST_UNKNOWN: Requested image not found`;

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'fraud', namespace: 'ml', uid: 'a6f1c1d2-0b4e-4a57-8f0e-5a1b2c3d4e5f', generation: 1 },
  spec: { predictor: { containers: [{ name: 'kserve-container', image: IMAGE }] } },
  status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionFailed' }] },
};

const knativeService = {
  apiVersion: 'serving.knative.dev/v1',
  kind: 'Service',
  metadata: {
    name: 'fraud-predictor',
    namespace: 'ml',
    labels: { 'serving.kserve.io/inferenceservice': 'fraud', component: 'predictor' },
  },
  spec: { template: { spec: { containers: [{ image: IMAGE }] } } },
  status: { conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionFailed' }] },
};

function revision(message: string) {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Revision',
    metadata: {
      name: 'fraud-predictor-00001',
      namespace: 'ml',
      generation: 1,
      labels: { 'serving.knative.dev/service': 'fraud-predictor', component: 'predictor' },
    },
    spec: { containers: [{ image: IMAGE }] },
    status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ContainerMissing', message }] },
  };
}

const configDeployment = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'config-deployment', namespace: 'knative-serving' },
  data: { registriesSkippingTagResolving: 'kind.local,ko.local,dev.local' },
};

describe('tag-resolution', () => {
  it('offers to skip tag resolution for a registry that refuses the controller, on the failing Revision', async () => {
    const { report } = await runPlaybook(
      tagResolution,
      [isvc, knativeService, revision(UNAUTHORIZED), configDeployment],
      TARGET,
    );
    expect(report.rootCause).toBe('IMAGE_DIGEST_RESOLUTION_FAILED');
    const f = report.findings[0]!;
    expect(f).toMatchObject({
      code: 'IMAGE_DIGEST_RESOLUTION_FAILED',
      subject: 'Revision ml/fraud-predictor-00001',
      revision: 'fraud-predictor-00001',
      component: 'predictor',
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: `image: ${IMAGE}; registry: ${REGISTRY}` }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        ref: 'ConfigMap knative-serving/config-deployment',
        text: 'registriesSkippingTagResolving: kind.local,ko.local,dev.local',
      }),
    );
    expect(f.remediation).toMatchObject({ action: 'skip-tag-resolution' });
    expect(f.remediation?.diff?.join('\n')).toContain(REGISTRY);
  });

  it('offers no skip for a tag that does not exist: the tag itself is what to change', async () => {
    const { report } = await runPlaybook(
      tagResolution,
      [isvc, knativeService, revision(NO_TAG), configDeployment],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'IMAGE_DIGEST_RESOLUTION_FAILED')!;
    expect(f.subject).toBe('Revision ml/fraud-predictor-00001');
    expect(f.remediation).toBeNull();
  });

  it('finds nothing when no condition says the tag could not be resolved', async () => {
    const { codes } = await runPlaybook(
      tagResolution,
      [isvc, knativeService, revision('Container failed with: exit status 1'), configDeployment],
      TARGET,
    );
    expect(codes).not.toContain('IMAGE_DIGEST_RESOLUTION_FAILED');
  });
});
