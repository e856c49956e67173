/**
 * stopped-service on an InferenceService alone: the stop annotation and the Stopped condition decide
 * whether it is stopped, being stopped or resuming; the managedFields entry that owns the annotation
 * says who stopped it, and whether resuming is offered (kubectl) or left to its owner (a GitOps tool).
 */
import { describe, expect, it } from '@jest/globals';
import type { Report } from '../src/findings/types.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { stoppedService } from './stopped-service.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';

function isvc(opts: { stop?: string; manager?: string; stopped?: boolean }): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: TARGET.name,
      namespace: TARGET.namespace,
      generation: 2,
      ...(opts.stop === undefined ? {} : { annotations: { 'serving.kserve.io/stop': opts.stop } }),
      ...(opts.manager
        ? {
            managedFields: [
              {
                manager: opts.manager,
                operation: 'Apply',
                time: '2026-11-02T09:30:00Z',
                apiVersion: 'serving.kserve.io/v1beta1',
                fieldsType: 'FieldsV1',
                fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:serving.kserve.io/stop': {} } } },
              },
            ],
          }
        : {}),
    },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris' } } },
    status: {
      observedGeneration: 2,
      conditions: opts.stopped
        ? [
            { type: 'PredictorReady', status: 'False', reason: 'Stopped' },
            { type: 'Ready', status: 'False', reason: 'Stopped' },
            { type: 'Stopped', status: 'True' },
          ]
        : [
            { type: 'PredictorReady', status: 'True' },
            { type: 'Ready', status: 'True' },
          ],
    },
  };
}

const stoppedFinding = ({ report }: { report: Report }) => report.findings.find((f) => f.code === 'ISVC_STOPPED');

describe('stopped-service', () => {
  it('says a service stopped with kubectl is stopped on purpose, by whom, and offers to resume it', async () => {
    const { report } = await runPlaybook(
      stoppedService,
      [isvc({ stop: 'true', manager: 'kubectl-annotate', stopped: true })],
      TARGET,
    );
    // not broken: an info finding, no root cause, and the service's Ready finding is not added
    expect(report.rootCause).toBeNull();
    expect(report.findings.map((x) => x.code)).toEqual(['ISVC_STOPPED']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ code: 'ISVC_STOPPED', severity: 'info', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: expect.stringContaining('kubectl-annotate') }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'condition', text: expect.stringMatching(/^Stopped=True/) }),
    );
    expect(f.remediation).toMatchObject({ action: 'resume-stopped-service', target: SUBJECT, needsApproval: true });
  });

  it('offers no resume when another manager owns the annotation (it would set it back), and names it', async () => {
    const { report } = await runPlaybook(
      stoppedService,
      [isvc({ stop: 'true', manager: 'argocd-controller', stopped: true })],
      TARGET,
    );
    const f = stoppedFinding({ report })!;
    expect(f.remediation).toBeNull();
    expect(f.next).toContain('argocd-controller');
  });

  it('notes a service being stopped: the annotation set, the controller not yet Stopped', async () => {
    const { report } = await runPlaybook(stoppedService, [isvc({ stop: 'TRUE' })], TARGET);
    const f = stoppedFinding({ report })!;
    expect(f.subject).toBe(SUBJECT);
    expect(f.evidence.map((e) => e.kind)).toContain('note');
    expect(f.remediation).toMatchObject({ action: 'resume-stopped-service' });
  });

  it('says a service still Stopped after the annotation went back to "false" is resuming, with nothing to offer', async () => {
    const { report } = await runPlaybook(stoppedService, [isvc({ stop: 'false', stopped: true })], TARGET);
    const f = stoppedFinding({ report })!;
    expect(f.remediation).toBeNull();
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'condition', text: expect.stringMatching(/^Stopped=True/) }),
    );
  });

  it('finds nothing on a running service, whatever the annotation says when it is not "true"', async () => {
    for (const stop of [undefined, 'false']) {
      const { codes } = await runPlaybook(stoppedService, [isvc(stop === undefined ? {} : { stop })], TARGET);
      expect(codes).toEqual(['ISVC_READY']);
    }
  });
});
