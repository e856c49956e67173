/**
 * An LLMInferenceService as a target: found by name by the diagnosis (the InferenceService when both
 * have the name, LLMISVC_SAME_NAME saying so, `--kind llmisvc` choosing the other), listed by status,
 * watched by the unready-watcher on KServe 0.17+ (its informers' versions).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { diagnose } from '../../src/app/diagnoser.js';
import { parseDiagnoseArgs } from '../../src/cli/diagnose-command.js';
import { listIsvcStatus } from '../../src/diagnosis/list-isvc-status.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { rememberServedGroups, servedGroupsOf } from '../../src/kube/served-groups.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { servedIsvcVersions } from '../../src/watcher/served-isvc-versions.js';

const sims: RunningSimulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.close();
});

/** The healthy KServe 0.20 LLMInferenceService llm/qwen, with an InferenceService of the same name when asked. */
async function cluster(withIsvc = false) {
  const snapshot = await loadSnapshot(path.resolve('test/scenarios/llm-healthy-kserve-0-20'));
  if (withIsvc)
    snapshot.objects.push({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'qwen', namespace: 'llm', annotations: { 'serving.kserve.io/deploymentMode': 'Standard' } },
      spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, storageUri: 'hf://Qwen/Qwen2.5-0.5B' } } },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-08-20T10:00:00Z' }] },
    });
  const sim = await startSimulator({ snapshot, port: 0 });
  sims.push(sim);
  // as the bot runs: discovery remembered by the process (the first wave then asks for both kinds)
  rememberServedGroups(
    sim.url,
    servedGroupsOf((await (await fetch(`${sim.url}/apis`)).json()) as Parameters<typeof servedGroupsOf>[0]),
  );
  return kubeConfigForServer(sim.url);
}

describe('an LLMInferenceService by name', () => {
  it('is diagnosed when no InferenceService has the name', async () => {
    const report = await diagnose(await cluster(), { namespace: 'llm', name: 'qwen' });
    expect(report.target).toMatchObject({ kind: 'llmisvc', apiVersion: 'serving.kserve.io/v1alpha2' });
    expect(report.ready).toBe(true);
    expect(report.findings[0]?.code).toBe('ISVC_READY');
  });

  it('when both kinds have the name: the InferenceService, saying the other exists; --kind llmisvc the other', async () => {
    const kubeConfig = await cluster(true);
    const isvc = await diagnose(kubeConfig, { namespace: 'llm', name: 'qwen' });
    expect(isvc.target.apiVersion).toBe('serving.kserve.io/v1beta1');
    expect(isvc.findings.map((f) => f.code)).toContain('LLMISVC_SAME_NAME');
    const llm = await diagnose(kubeConfig, { namespace: 'llm', name: 'qwen', kind: 'llmisvc' });
    expect(llm.target).toMatchObject({ kind: 'llmisvc' });
    expect(llm.findings.map((f) => f.code)).not.toContain('LLMISVC_SAME_NAME');
  });

  it('the CLI takes --kind', () => {
    expect(parseDiagnoseArgs(['qwen', '-n', 'llm', '--kind', 'llmisvc'])).toMatchObject({
      name: 'qwen',
      kind: 'llmisvc',
    });
    expect(() => parseDiagnoseArgs(['qwen', '--kind', 'llm'])).toThrow('--kind takes llmisvc or isvc');
  });

  it('is listed by status next to the InferenceServices, marked as an LLMInferenceService', async () => {
    const rows = await listIsvcStatus(await cluster(true), 'llm');
    expect(rows.map((r) => [r.name, r.kind ?? 'isvc', r.ready])).toEqual(
      expect.arrayContaining([
        ['qwen', 'isvc', true],
        ['qwen', 'llmisvc', true],
      ]),
    );
  });

  it('is watched on KServe 0.17+: the informers include its preferred version, after the InferenceService ones', async () => {
    const versions = await servedIsvcVersions(await cluster());
    expect(versions.map((r) => `${r.group}/${r.version}/${r.plural}`)).toEqual([
      'serving.kserve.io/v1beta1/inferenceservices',
      'serving.kserve.io/v1alpha2/llminferenceservices',
    ]);
  });
});
