import { describe, expect, it } from '@jest/globals';
import { refusedChange, refusedChangeNext } from '../../../src/diagnosis/refused-change.js';
import { finding } from '../../../src/findings/finding.js';
import type { InferenceServiceObject } from '../../../src/kube/schemas.js';

const isvc = (annotation: string, status: string) =>
  ({
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'm', namespace: 'ns', annotations: { 'serving.kserve.io/deploymentMode': annotation } },
    spec: {},
    status: { deploymentMode: status },
  }) as unknown as InferenceServiceObject;

const refusal = (text: string) =>
  finding('ADMISSION_DENIED', {
    subject: 'InferenceService ns/m',
    title: 't',
    evidence: [{ kind: 'log', ref: 'x', text }],
  });

describe('refusedChange', () => {
  const line =
    "admission webhook \"inferenceservice.kserve-webhook-server.validator\" denied the request: update rejected: deploymentMode cannot be changed from 'Standard' to 'RawDeployment'";

  it('finds the annotation the refusal names by its value, and the status field of the same name', () => {
    const r = refusedChange(isvc('RawDeployment', 'Standard'), refusal(line));
    expect(r).toMatchObject({
      where: 'annotation',
      key: 'serving.kserve.io/deploymentMode',
      value: 'RawDeployment',
      statusField: 'status.deploymentMode',
      statusValue: 'Standard',
      own: true,
    });
    expect(refusedChangeNext(r!, { namespace: 'ns', name: 'm' }, false)).toContain(
      'kubectl annotate inferenceservice m -n ns serving.kserve.io/deploymentMode=Standard --overwrite',
    );
  });

  it('says nothing when the object does not hold the value the refusal quotes', () => {
    expect(refusedChange(isvc('Knative', 'Knative'), refusal(line))).toBeUndefined();
    expect(refusedChange(isvc('RawDeployment', 'Standard'), refusal('no refusal here'))).toBeUndefined();
  });
});
