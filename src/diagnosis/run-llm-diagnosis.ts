/**
 * The LLMInferenceService side of a diagnosis (KServe's llmisvc component, 0.16+). The runner finds
 * the name as an InferenceService, an LLMInferenceService or both; for an LLMInferenceService it
 * runs the playbooks marked `kind: 'llmisvc'` against it, through the same memoised reader, so the
 * first wave (started here, together with the lookup) and the second (what those answers name:
 * logs, gateways) are the two waves of any diagnosis.
 */
import type { DiagnosisConfig } from '../config.js';
import { humanDuration } from '../core/duration.js';
import type { TargetRef } from '../core/target-ref.js';
import { finding } from '../findings/finding.js';
import { genericNextStepContext, type NextStepContext } from '../findings/next-step-context.js';
import type { Finding } from '../findings/types.js';
import type { ClusterReader, FoundInferenceService } from '../kube/cluster-reader.js';
import { conditionOf, isReady, refOf } from '../kube/inference-service-view.js';
import { llmInferenceServiceSelector } from '../kube/resources.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { shippedSignatures } from '../signatures/load-signatures.js';
import { safely } from './first-wave.js';
import type { DiagnosisContext, FirstWaveTarget, Playbook } from './playbook.js';
import { runPlaybooks } from './run-playbooks.js';

export const isvcPlaybooks = (all: readonly Playbook[]) => all.filter((p) => p.kind !== 'llmisvc');
export const llmPlaybooks = (all: readonly Playbook[]) => all.filter((p) => p.kind === 'llmisvc');

export const apiVersionOf = (found: FoundInferenceService) => `${found.resource.group}/${found.resource.version}`;

/** Starts the LLMInferenceService playbooks' own first-wave reads and the events (does not wait). */
export function startLlmFirstWave(
  reader: ClusterReader,
  target: FirstWaveTarget,
  config: DiagnosisConfig,
  playbooks: readonly Playbook[],
): void {
  const reads = [
    ...llmPlaybooks(playbooks).flatMap((p) => safely(() => p.firstWave?.(reader, target, config) ?? [])),
    reader.events(target.namespace),
  ];
  for (const read of reads) read.catch(() => undefined);
}

/** Next steps of an LLMInferenceService: its pods by the llmisvc labels, fields in its spec.template. */
export function llmNextStepContext(target: TargetRef, knativeNamespace: string): NextStepContext {
  return {
    ...genericNextStepContext(target, knativeNamespace),
    podSelector: llmInferenceServiceSelector(target.name),
    fieldPath: (_component, field) => `spec.template.containers[name=main].${field}`,
  };
}

export interface LlmRun {
  findings: Finding[];
  /** Ready=True, and the configs merged (PresetsCombined is outside Ready's rollup in 0.16-0.20). */
  ready: boolean;
}

/** Runs the LLMInferenceService playbooks; a playbook that fails is reported while the others' results still show. */
export async function runLlmPlaybooks(
  playbooks: readonly Playbook[],
  reader: ClusterReader,
  target: TargetRef,
  found: FoundInferenceService,
  config: DiagnosisConfig,
  options: { signatures?: SignatureCatalog; signal?: AbortSignal },
  now: () => Date,
): Promise<LlmRun> {
  const ctx: DiagnosisContext = {
    target: {
      namespace: target.namespace,
      name: target.name,
      resource: found.resource,
      apiVersion: apiVersionOf(found),
      isvc: found.object,
      kind: 'llmisvc',
    },
    reader,
    config,
    signatures: options.signatures ?? shippedSignatures(),
    signal: options.signal ?? new AbortController().signal,
    now,
  };
  const findings = await runPlaybooks(llmPlaybooks(playbooks), ctx);
  const presets = conditionOf(found.object, 'PresetsCombined');
  return { findings, ready: isReady(found.object) && presets?.status !== 'False' };
}

/** The clean bill of an LLMInferenceService: its URL(s) and age. */
export function llmReadyFinding(target: TargetRef, found: FoundInferenceService, now: Date): Finding {
  const o = found.object;
  const ref = refOf('LLMInferenceService', target.namespace, target.name);
  const status = (o.status ?? {}) as { url?: unknown; addresses?: unknown };
  const addresses = Array.isArray(status.addresses)
    ? status.addresses
        .map((a) => (a && typeof a === 'object' ? (a as { url?: unknown }).url : undefined))
        .filter((u): u is string => typeof u === 'string')
    : [];
  const url = typeof status.url === 'string' ? status.url : addresses[0];
  const created = o.metadata.creationTimestamp ? Date.parse(o.metadata.creationTimestamp) : Number.NaN;
  return finding('ISVC_READY', {
    subject: ref,
    title: `LLMInferenceService ${target.name} is ready${url ? ` at ${url}` : ''}`,
    evidence: [
      { kind: 'field', ref, text: `url: ${url ?? 'none'}` },
      ...(addresses.length > 1 ? [{ kind: 'field' as const, ref, text: `addresses: ${addresses.join(', ')}` }] : []),
      {
        kind: 'field',
        ref,
        text: `age: ${Number.isFinite(created) ? humanDuration(now.getTime() - created) : 'unknown'}`,
      },
    ],
  });
}

/** An InferenceService was diagnosed; an LLMInferenceService of the same name exists too. */
export function sameNameFinding(target: TargetRef, isvcApiVersion: string, llmApiVersion: string): Finding {
  const ref = refOf('InferenceService', target.namespace, target.name);
  return finding('LLMISVC_SAME_NAME', {
    subject: ref,
    title: `An LLMInferenceService is also named ${target.name}: this report is about the InferenceService (--kind llmisvc for the other)`,
    evidence: [
      { kind: 'field', ref, text: `InferenceService ${isvcApiVersion}` },
      {
        kind: 'field',
        ref: refOf('LLMInferenceService', target.namespace, target.name),
        text: `LLMInferenceService ${llmApiVersion}`,
      },
    ],
  });
}
