/**
 * llm-conditions on an LLMInferenceService's conditions and the llmisvc controller's log: a
 * PresetsCombined=False naming a well-known preset that is not installed (Ready=True left from an
 * earlier reconcile said so) or a spec.baseRefs entry that exists nowhere, with the controller's
 * line about the service; Ready=False walked down its rollup to the sub-condition that is False; a
 * status older than the spec (generation vs observedGeneration) and a sub-condition reporting a
 * reconcile error. A Ready service and a stopped one are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { type Cond, condition } from '../test/support/condition.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { llmConditions } from './llm-conditions.js';

const NS = 'default';
const NAME = 'distilgpt2';
const TARGET = { namespace: NS, name: NAME };
const SUBJECT = 'LLMInferenceService default/distilgpt2';
const CONTROLLER = 'llmisvc-controller-manager-5d4c8b7f9-h2j6k';

const c = condition;

function llmisvc(
  conditions: Cond[],
  { generation = 1, observed = 1, baseRefs }: { generation?: number; observed?: number; baseRefs?: string[] } = {},
) {
  return {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    metadata: { name: NAME, namespace: NS, generation },
    spec: {
      model: { uri: 'hf://distilbert/distilgpt2', name: 'distilbert/distilgpt2' },
      ...(baseRefs ? { baseRefs: baseRefs.map((name) => ({ name })) } : {}),
      router: { route: {}, gateway: {} },
    },
    status: { observedGeneration: observed, conditions },
  };
}

const controller = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: CONTROLLER,
    namespace: 'kserve',
    labels: { 'control-plane': 'llmisvc-controller-manager', 'app.kubernetes.io/name': 'llmisvc-controller-manager' },
  },
  spec: { containers: [{ name: 'manager', image: 'kserve/llmisvc-controller:v0.16.0' }] },
  status: { phase: 'Running', containerStatuses: [{ name: 'manager', ready: true, restartCount: 0, image: 'x' }] },
};

const NOT_FOUND =
  'failed to get LLMInferenceServiceConfig "kserve-config-llm-template" from namespaces ["default", "kserve"]: LLMInferenceServiceConfig.serving.kserve.io "kserve-config-llm-template" not found';
const reconcileLine = (error: string) =>
  JSON.stringify({
    level: 'error',
    msg: 'Failed to reconcile LLMInferenceService',
    controller: 'llminferenceservice',
    LLMInferenceService: { name: NAME, namespace: NS },
    namespace: NS,
    name: NAME,
    error,
  });
const controllerLog = (error: string) => ({
  [`kserve/${CONTROLLER}/manager`]: `${JSON.stringify({ level: 'info', msg: 'Starting workers', controller: 'llminferenceservice' })}\n${reconcileLine(error)}\n`,
});

describe('llm-conditions', () => {
  it('a well-known preset not installed: PresetsCombined, a stale Ready=True said so, and the controller line', async () => {
    const { report, codes } = await runPlaybook(
      llmConditions,
      [llmisvc([c('PresetsCombined', 'False', 'ConfigNotFound', NOT_FOUND), c('Ready', 'True')]), controller],
      TARGET,
      { logs: controllerLog(`failed to combine base-configurations: ${NOT_FOUND}`) },
    );
    expect(codes).not.toContain('LLMISVC_NOT_READY');
    const f = report.findings.find((x) => x.code === 'LLM_CONFIG_MERGE_FAILED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence[0]).toMatchObject({
      kind: 'condition',
      text: `PresetsCombined=False (ConfigNotFound): ${NOT_FOUND}`,
    });
    expect(f.evidence.map((e) => e.kind)).toEqual(['condition', 'note']);
    expect(f.next).toContain('kubectl get llminferenceserviceconfigs -n kserve');
    expect(f.next).toContain('kserve-config-llm-template');
    const r = report.findings.find((x) => x.code === 'CONTROLLER_RECONCILE_FAILED')!;
    expect(r).toMatchObject({ subject: SUBJECT });
    expect(r.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', ref: `Pod kserve/${CONTROLLER}`, container: 'manager', lineNumbers: [2] }),
    );
  });

  it('a spec.baseRefs entry that exists nowhere: the field, and removing it from spec.baseRefs', async () => {
    const message =
      'failed to get LLMInferenceServiceConfig "my-vllm-args" from namespaces ["default", "kserve"]: LLMInferenceServiceConfig.serving.kserve.io "my-vllm-args" not found';
    const { report } = await runPlaybook(
      llmConditions,
      [llmisvc([c('PresetsCombined', 'False', 'ConfigNotFound', message)], { baseRefs: ['my-vllm-args'] })],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'LLM_CONFIG_MERGE_FAILED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual({ kind: 'field', ref: SUBJECT, text: 'spec.baseRefs: my-vllm-args' });
    expect(f.next).toContain('remove my-vllm-args from spec.baseRefs');
  });

  it('Ready=False walked down its rollup to the sub-condition that is False', async () => {
    const waiting =
      'Inference Pool default/distilgpt2-inference-pool exists but no Gateway controller has accepted it yet';
    const { report, codes } = await runPlaybook(
      llmConditions,
      [
        llmisvc([
          c('PresetsCombined', 'True'),
          c('WorkloadsReady', 'True'),
          c('MainWorkloadReady', 'True'),
          c('RouterReady', 'False', 'WaitingForGateway', waiting),
          c('InferencePoolReady', 'False', 'WaitingForGateway', waiting),
          c('Ready', 'False', 'WaitingForGateway', waiting),
        ]),
      ],
      TARGET,
    );
    expect(codes).toEqual(['LLMISVC_NOT_READY']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence.map((e) => e.text)).toEqual([
      `Ready=False (WaitingForGateway): ${waiting}`,
      `RouterReady=False (WaitingForGateway): ${waiting}`,
      `InferencePoolReady=False (WaitingForGateway): ${waiting}`,
    ]);
    expect(f.title).toContain('InferencePoolReady=False');
  });

  it('a status older than the spec, and a sub-condition reporting a reconcile error, send to the controller', async () => {
    const stale = await runPlaybook(
      llmConditions,
      [llmisvc([c('PresetsCombined', 'True'), c('Ready', 'True')], { generation: 3, observed: 2 })],
      TARGET,
    );
    expect(stale.codes).toEqual(['CONTROLLER_RECONCILE_FAILED']);
    const s = stale.report.findings[0]!;
    expect(s).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(s.evidence).toEqual([
      { kind: 'field', ref: SUBJECT, text: 'metadata.generation 3, status.observedGeneration 2' },
    ]);

    const error = 'failed to reconcile HTTPRoute: admission webhook denied the request: spec.rules[0].timeouts';
    const refused = await runPlaybook(
      llmConditions,
      [
        llmisvc([
          c('PresetsCombined', 'True'),
          c('HTTPRoutesReady', 'False', 'HTTPRouteReconcileError', error),
          c('RouterReady', 'False', 'HTTPRouteReconcileError', error),
          c('Ready', 'False', 'HTTPRouteReconcileError', error),
        ]),
      ],
      TARGET,
    );
    const r = refused.report.findings.find((x) => x.code === 'CONTROLLER_RECONCILE_FAILED')!;
    expect(r).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(r.evidence[0]!.text).toBe(`HTTPRoutesReady=False (HTTPRouteReconcileError): ${error}`);
    expect(r.next).toContain(error);
  });

  it('leaves alone a Ready service and a stopped one', async () => {
    const ready = await runPlaybook(
      llmConditions,
      [
        llmisvc([
          c('PresetsCombined', 'True'),
          c('WorkloadsReady', 'True'),
          c('RouterReady', 'True'),
          c('Ready', 'True'),
        ]),
        controller,
      ],
      TARGET,
    );
    const own = (codes: string[]) => codes.filter((x) => (llmConditions.emits as readonly string[]).includes(x));
    expect(own(ready.codes)).toEqual([]);
    const stopped = await runPlaybook(
      llmConditions,
      [
        llmisvc([
          c('PresetsCombined', 'False', 'Stopped', 'Service is stopped'),
          c('Ready', 'False', 'Stopped', 'Service is stopped'),
        ]),
      ],
      TARGET,
    );
    expect(own(stopped.codes)).toEqual([]);
  });
});
