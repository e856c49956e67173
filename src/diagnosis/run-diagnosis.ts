/**
 * The diagnosis runner: one InferenceService (or LLMInferenceService) in, one Report out. It reads
 * as prefetch, then which report, then finish; how the reads are sped up (the first wave, the lazy
 * playbook loader, the discovery hint's retry) is prefetch.ts's, and each result it builds is a
 * module of its own.
 *
 * 1. Prefetch: the service by name under every served API version, its lookup sent with every read
 *    that needs only the name (prefetch.ts).
 * 2. Which report: the lookup refused: BOT_FORBIDDEN with the RBAC rule (forbidden-findings.ts); an
 *    LLMInferenceService: its playbooks (run-llm-diagnosis.ts); not found: ISVC_NOT_FOUND naming close
 *    names and the namespaces that do hold the name, a bot request without -n following the only one
 *    (not-found-finding.ts); an InferenceService: every playbook concurrently against the one
 *    memoised ClusterReader (run-playbooks.ts), denied reads as BOT_FORBIDDEN findings, none failing:
 *    ISVC_READY (ready-finding.ts).
 * 3. Finish: one finding per code and scope (merge-duplicates.ts), root cause first, next steps built
 *    from the evidence, consequences tied to their cause, every string redacted, titles one line
 *    (finish-findings.ts, title-line.ts); the report carries the reads it was made from (`reads`)
 *    for a remediation planned right after.
 * Playbooks read the cluster only through the reader; this file holds no failure knowledge.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_DIAGNOSIS_CONFIG, type DiagnosisConfig } from '../config.js';
import type { TargetRef } from '../core/target-ref.js';
import { genericNextStepContext } from '../findings/next-step-context.js';
import type { DiagnosisStats, Report } from '../findings/types.js';
import { makeKubeClients } from '../kube/client.js';
import type { AnsweredReads, ClusterReader, FoundInferenceService } from '../kube/cluster-reader.js';
import { isReady } from '../kube/inference-service-view.js';
import type { CustomResource } from '../kube/resources.js';
import { shippedSignatures } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { finishFindings } from './finish-findings.js';
import { forbiddenFindings } from './forbidden-findings.js';
import { mergeDuplicates } from './merge-duplicates.js';
import { notFoundFinding, onlyOtherNamespace } from './not-found-finding.js';
import { llmServiceOf, prefetch, type PlaybookSource, type PrefetchRequest } from './prefetch.js';
import { readyFinding } from './ready-finding.js';
import { runPlaybooks } from './run-playbooks.js';
import {
  apiVersionOf,
  isvcPlaybooks,
  llmNextStepContext,
  llmReadyFinding,
  runLlmPlaybooks,
  sameNameFinding,
} from './run-llm-diagnosis.js';
import type { DiagnosisContext, Playbook } from './playbook.js';
import { serviceNextStepContext } from './service-next-step-context.js';

/** The codes the runner itself reports (next to what the playbooks find). */
export const RUNNER_CODES = ['ISVC_NOT_FOUND', 'ISVC_READY', 'BOT_FORBIDDEN', 'CLUSTER_UNREACHABLE'] as const;

export interface DiagnoseOptions {
  config?: Partial<DiagnosisConfig>;
  /** The signature catalog (a team's files, then the shipped ones); the shipped ones when absent. */
  signatures?: SignatureCatalog;
  signal?: AbortSignal;
  now?: () => Date;
  /** The InferenceService as this process already holds it (the watcher's informer): no request for it. */
  inferenceService?: { resource: CustomResource; object: unknown };
}

export type { PlaybookSource } from './prefetch.js';

/** The reads behind a report this process made (undefined for a report from elsewhere, e.g. a queue's copy). */
export function answeredReadsOf(report: Report): AnsweredReads | undefined {
  return report.reads;
}

/** What one diagnosis holds while it runs: its target, settings and the reader every read goes through. */
interface Run {
  target: TargetRef;
  config: DiagnosisConfig;
  options: DiagnoseOptions;
  now: () => Date;
  reader: ClusterReader;
  playbooks: readonly Playbook[];
  stats: () => DiagnosisStats;
}

/**
 * Diagnoses one InferenceService with the given playbooks: finds it under any supported API
 * version, runs every playbook concurrently against a memoised reader, and returns the findings
 * with the root cause first. Throws ClusterUnreachableError only when the InferenceService itself
 * cannot be read.
 */
export async function runDiagnosis(
  source: PlaybookSource,
  kubeConfig: KubeConfig,
  target: TargetRef,
  options: DiagnoseOptions = {},
): Promise<Report> {
  const started = Date.now();
  const clients = makeKubeClients(kubeConfig);
  const config: DiagnosisConfig = { ...DEFAULT_DIAGNOSIS_CONFIG, ...options.config };
  const stats = () => ({ durationMs: Date.now() - started, apiRequests: clients.requestCount() });
  const heldKind = options.inferenceService?.resource.plural === 'llminferenceservices' ? 'llmisvc' : undefined;
  const request: PrefetchRequest = {
    source,
    clients,
    namespace: target.namespace,
    name: target.name,
    kind: target.kind ?? heldKind,
    config,
    ...(options.inferenceService ? { held: options.inferenceService } : {}),
  };
  // find the service: its lookup goes out with every read that needs only its name (prefetch.ts)
  const prefetched = await prefetch(request);
  if (prefetched.refused) return refusedReport(prefetched.reader, target, config, stats);
  const { reader, playbooks, found } = prefetched;
  const run: Run = { target, config, options, now: options.now ?? (() => new Date()), reader, playbooks, stats };
  const llm = await llmServiceOf(prefetched, request);
  if (llm) return llmReport(run, llm);
  if (!found) return notFoundReport(run, kubeConfig);
  return inferenceServiceReport(run, found, prefetched.llmLookup);
}

/** The lookup itself was refused: what to grant. */
async function refusedReport(
  reader: ClusterReader,
  target: TargetRef,
  config: DiagnosisConfig,
  stats: () => DiagnosisStats,
): Promise<Report> {
  await reader.settled();
  const findings = finishFindings(
    forbiddenFindings(reader.denied(), target),
    genericNextStepContext(target, config.knativeNamespace),
  );
  return {
    target: { ...target, apiVersion: null },
    ready: false,
    rootCause: findings[0]?.code ?? null,
    findings,
    stats: stats(),
  };
}

/** An LLMInferenceService: its playbooks, then the report. */
async function llmReport(run: Run, llm: FoundInferenceService): Promise<Report> {
  const { target, config, reader } = run;
  const { findings, ready } = await runLlmPlaybooks(run.playbooks, reader, target, llm, config, run.options, run.now);
  await reader.settled();
  findings.push(...forbiddenFindings(reader.denied(), target));
  if (ready && !findings.some((f) => f.severity !== 'info')) findings.push(llmReadyFinding(target, llm, run.now()));
  const ordered = finishFindings(mergeDuplicates(findings), llmNextStepContext(target, config.knativeNamespace));
  const first = ordered[0];
  return {
    target: { namespace: target.namespace, name: target.name, apiVersion: apiVersionOf(llm), kind: 'llmisvc' },
    ready,
    rootCause: first && first.severity !== 'info' ? first.code : null,
    findings: ordered,
    stats: run.stats(),
    reads: reader.answered(),
  };
}

/** No service of the name: ISVC_NOT_FOUND, or the diagnosis of the one other namespace that holds it. */
async function notFoundReport(run: Run, kubeConfig: KubeConfig): Promise<Report> {
  const { target, config, reader, stats } = run;
  const { finding: notFound, otherNamespaces } = await notFoundFinding(reader, target);
  await reader.settled();
  const { namespaceDefaulted, ...asked } = target;
  const only = namespaceDefaulted ? onlyOtherNamespace(otherNamespaces, config) : undefined;
  if (only) {
    const report = await runDiagnosis(run.playbooks, kubeConfig, { ...asked, namespace: only }, run.options);
    report.followedFrom = { namespace: target.namespace };
    // both lookups count: the one that found nothing here and the diagnosis there
    report.stats = { durationMs: stats().durationMs, apiRequests: stats().apiRequests + report.stats.apiRequests };
    return report;
  }
  const findings = finishFindings([notFound], genericNextStepContext(target, config.knativeNamespace));
  return {
    target: { ...asked, apiVersion: null },
    ready: false,
    rootCause: 'ISVC_NOT_FOUND',
    findings,
    stats: stats(),
  };
}

/** An InferenceService: every playbook at once against the reader, then the report. */
async function inferenceServiceReport(
  run: Run,
  found: FoundInferenceService,
  llmLookup: Promise<FoundInferenceService | null> | undefined,
): Promise<Report> {
  const { target, config, reader } = run;
  const apiVersion = `${found.resource.group}/${found.resource.version}`;
  const ctx: DiagnosisContext = {
    target: {
      namespace: target.namespace,
      name: target.name,
      resource: found.resource,
      apiVersion,
      isvc: found.object,
    },
    reader,
    config,
    signatures: run.options.signatures ?? shippedSignatures(),
    signal: run.options.signal ?? new AbortController().signal,
    now: run.now,
  };
  const findings = await runPlaybooks(isvcPlaybooks(run.playbooks), ctx);
  await reader.settled();
  findings.push(...forbiddenFindings(reader.denied(), target));

  if (llmLookup) {
    const both = await llmLookup.catch(() => null);
    if (both) findings.push(sameNameFinding(target, apiVersion, apiVersionOf(both)));
  }
  const ready = isReady(found.object);
  const problems = findings.filter((f) => f.severity !== 'info');
  if (ready && problems.length === 0) findings.push(readyFinding(ctx));
  const ordered = finishFindings(
    mergeDuplicates(findings),
    serviceNextStepContext(ctx.target, config.knativeNamespace),
  );
  const first = ordered[0];
  return {
    target: { namespace: target.namespace, name: target.name, apiVersion },
    ready,
    rootCause: first && first.severity !== 'info' ? first.code : null,
    findings: ordered,
    stats: run.stats(),
    reads: reader.answered(),
  };
}
