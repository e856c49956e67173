/**
 * The diagnosis runner: one InferenceService (or LLMInferenceService) in, one Report out. It finds
 * the service, runs the playbooks and finishes the report; how the reads are sped up (the first
 * wave, the lazy playbook loader, the discovery hint's retry) is prefetch.ts's.
 *
 * 1. Find: the service by name under every served API version, its lookup sent with every read that
 *    needs only the name (prefetch.ts). Not found: ISVC_NOT_FOUND naming close names and the
 *    namespaces that do hold the name (a bot request without -n follows the only one); the lookup
 *    refused: BOT_FORBIDDEN with the RBAC rule.
 * 2. Run: every playbook concurrently against the one memoised ClusterReader (run-playbooks.ts; an
 *    LLMInferenceService's in run-llm-diagnosis.ts); denied reads become BOT_FORBIDDEN findings;
 *    none failing: ISVC_READY.
 * 3. Finish: root cause first (order-findings.ts), next steps built from the evidence
 *    (findings/next-step.ts), consequences tied to their cause, every string redacted; the report
 *    carries the reads it was made from (`reads`) for a remediation planned right after.
 * Playbooks read the cluster only through the reader; this file holds no failure knowledge.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_DIAGNOSIS_CONFIG, namespaceAllowed, type DiagnosisConfig } from '../config.js';
import { humanDuration } from '../core/duration.js';
import type { TargetRef } from '../core/target-ref.js';
import { finding } from '../findings/finding.js';
import { CLOSE_NAMES_PREFIX, OTHER_NAMESPACES_PREFIX } from '../findings/not-found-alternatives.js';
import { genericNextStepContext, type NextStepContext } from '../findings/next-step-context.js';
import { withNextStep } from '../findings/next-step.js';
import { orderFindings } from '../findings/order-findings.js';
import { redactFinding } from '../findings/redact-finding.js';
import type { DiagnosisStats, Evidence, Finding, Report } from '../findings/types.js';
import { makeKubeClients } from '../kube/client.js';
import type { AnsweredReads, ClusterReader, FoundInferenceService } from '../kube/cluster-reader.js';
import { describeResource, type DeniedRequest } from '../kube/errors.js';
import { isReady, isvcUrl, refOf } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';
import { cutLine } from '../logs/cut-line.js';
import { decidingSpan, focusLine } from '../logs/focus-line.js';
import { shippedSignatures } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { withCanaryCause } from './canary-cause.js';
import { closeNames } from './close-names.js';
import { llmServiceOf, prefetch, type PlaybookSource, type PrefetchRequest } from './prefetch.js';
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

/** What Kubernetes adds to a repeated event's message, which says nothing about the failure. */
const withoutNoise = (text: string) => text.replace(/\(combined from similar events\):\s*/g, '');
/**
 * A title quotes a ReplicaSet's refusal after saying what refuses the pods; the refusal's own head
 * (`Error creating: pods "<a pod name that never existed>" is forbidden: `) repeats that, so the
 * title keeps only the reason (the evidence keeps the whole message).
 */
const titleWithoutNoise = (title: string) =>
  withoutNoise(title).replace(/(\bforbids? [^:]*: )Error creating: pods "[^"]*" is forbidden: /, '$1');

/** Findings as a report carries them: ordered (root cause first), each with its next step, redacted. */
function finish(findings: Finding[], next: NextStepContext): Finding[] {
  const ordered = orderFindings(findings).map((f) => withNextStep(f, next));
  // a consequence is fixed by its cause's next step: it carries none of its own
  return withCanaryCause(ordered).map((f) => {
    const { next: _own, ...rest } = f;
    // redacted before the title is cut, so a cut never leaves part of a secret behind
    const redacted = redactFinding(f.consequenceOf ? rest : f);
    return {
      ...redacted,
      title: oneLine(titleWithoutNoise(redacted.title)),
      evidence: redacted.evidence.map((e) => (e.text ? { ...e, text: withoutNoise(e.text) } : e)),
    };
  });
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
  const findings = finish(
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
  const ordered = finish(mergeDuplicates(findings), llmNextStepContext(target, config.knativeNamespace));
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
  const findings = finish([notFound], genericNextStepContext(target, config.knativeNamespace));
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
  const ordered = finish(mergeDuplicates(findings), serviceNextStepContext(ctx.target, config.knativeNamespace));
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

/**
 * One finding per code and scope: evidence from several playbooks about the same thing is merged
 * (a finding without a revision joins the one of the same code and component that has one, e.g.
 * KServe's modelStatus and the model server's own log line).
 */
function mergeDuplicates(findings: Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const i = out.findIndex((g) => g.code === f.code && sameThing(g, f));
    if (i < 0) out.push(f);
    else out[i] = merge(out[i]!, f);
  }
  return out;
}

function sameThing(a: Finding, b: Finding): boolean {
  if ((a.component ?? '') !== (b.component ?? '') && a.component && b.component) return false;
  if (a.revision && b.revision) return a.revision === b.revision;
  if (!a.revision && !b.revision) {
    if (a.subject === b.subject) return (a.component ?? '') === (b.component ?? '');
    // KServe's report on the InferenceService and a pod's own line about the same component
    return Boolean(
      a.component &&
        a.component === b.component &&
        [a.subject, b.subject].some((s) => s.startsWith('InferenceService ')),
    );
  }
  return Boolean(a.component && b.component);
}

function merge(a: Finding, b: Finding): Finding {
  const [base, other] = b.revision && !a.revision ? [b, a] : [a, b];
  const explains = [...new Set([...(base.explains ?? []), ...(other.explains ?? [])])];
  return {
    ...base,
    evidence: [...base.evidence, ...other.evidence.filter((e) => !base.evidence.some((b) => sameEvidence(b, e)))],
    remediation: base.remediation ?? other.remediation,
    // the step built from a pod's own lines (the model server's, the kubelet's) before the status's copy of them
    ...(nextOf(base, other) ? { next: nextOf(base, other) } : {}),
    ...(explains.length ? { explains } : {}),
  };
}

function nextOf(a: Finding, b: Finding): string | undefined {
  const fromPod = [a, b].find((f) => f.next && f.subject.startsWith('Pod '));
  return fromPod?.next ?? a.next ?? b.next;
}

/** The same evidence, or the same note read from two places (a signature's note on an event and on a log line). */
function sameEvidence(a: Evidence, b: Evidence): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || (a.kind === 'note' && b.kind === 'note' && a.text === b.text);
}

function forbiddenFindings(denied: DeniedRequest[], target: TargetRef): Finding[] {
  return denied.map((d) => {
    const where = d.namespace ? ` in namespace ${d.namespace}` : ' cluster-wide';
    const rule = `- apiGroups: ["${d.group}"]\n  resources: ["${d.resource}"]\n  verbs: ["${d.verb}"]`;
    return finding('BOT_FORBIDDEN', {
      subject: refOf('InferenceService', target.namespace, target.name),
      title: `The bot may not ${d.verb} ${describeResource(d)}${where}, so a check could not run`,
      evidence: [
        {
          kind: 'note',
          ref: `RBAC ${d.namespace ? `Role in ${d.namespace}` : 'ClusterRole'}`,
          text: `denied: ${d.verb} ${describeResource(d)}${where}`,
        },
        { kind: 'note', ref: 'RBAC rule that would allow it', text: rule },
      ],
    });
  });
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** The one other namespace that holds the name, when the bot may read it. */
function onlyOtherNamespace(otherNamespaces: readonly string[], config: DiagnosisConfig): string | undefined {
  const only = otherNamespaces.length === 1 ? otherNamespaces[0] : undefined;
  return only && namespaceAllowed(config, only) ? only : undefined;
}

/** ISVC_NOT_FOUND, and the other namespaces that hold the name (what a defaulted namespace may follow). */
async function notFoundFinding(
  reader: ClusterReader,
  target: TargetRef,
): Promise<{ finding: Finding; otherNamespaces: string[] }> {
  const [names, elsewhere] = await Promise.all([
    reader.inferenceServiceNames(target.namespace).catch(() => [] as string[]),
    reader.inferenceServiceNamespaces(target.name).catch(() => [] as string[]),
  ]);
  const otherNamespaces = elsewhere.filter((ns) => ns !== target.namespace);
  const close = closeNames(target.name, names);
  const versions = await reader.inferenceServiceVersions().catch(() => [...INFERENCE_SERVICE_VERSIONS]);
  const groups = versions.map((r) => `${r.group}/${r.version}`).join(', ');
  const notFound = finding('ISVC_NOT_FOUND', {
    subject: refOf('InferenceService', target.namespace, target.name),
    title: `No InferenceService "${target.name}" in namespace ${target.namespace}${
      otherNamespaces.length
        ? ` (it is in ${plural(otherNamespaces.length, 'namespace', 'namespaces')} ${otherNamespaces.slice(0, 5).join(', ')})`
        : close.length
          ? ` (did you mean ${close.join(', ')}?)`
          : ''
    }`,
    evidence: [
      {
        kind: 'field',
        ref: `Namespace ${target.namespace}`,
        text: `searched namespace ${target.namespace} under ${groups}`,
      },
      {
        kind: 'note',
        ref: `Namespace ${target.namespace}`,
        text: `${versions[0] ? `${versions[0].plural}.${versions[0].group}` : 'inferenceservices'} "${target.name}" not found`,
      },
      {
        kind: 'field',
        ref: `Namespace ${target.namespace}`,
        text: close.length
          ? `${CLOSE_NAMES_PREFIX}${close.join(', ')}`
          : `InferenceServices there: ${names.slice(0, 20).join(', ') || 'none'}`,
      },
      ...(otherNamespaces.length
        ? [
            {
              kind: 'field' as const,
              ref: `InferenceService ${target.name}`,
              text: `${OTHER_NAMESPACES_PREFIX}${otherNamespaces.slice(0, 20).join(', ')}`,
            },
          ]
        : []),
    ],
  });
  return { finding: notFound, otherNamespaces };
}

function readyFinding(ctx: DiagnosisContext): Finding {
  const isvc = ctx.target.isvc;
  const created = isvc.metadata.creationTimestamp ? new Date(isvc.metadata.creationTimestamp) : undefined;
  const age = created ? humanDuration(ctx.now().getTime() - created.getTime()) : 'unknown';
  const url = isvcUrl(isvc);
  const components = (isvc.status?.components ?? {}) as Record<string, Record<string, unknown>>;
  const latestReady = Object.entries(components)
    .map(([name, c]) => (typeof c.latestReadyRevision === 'string' ? `${name}: ${c.latestReadyRevision}` : undefined))
    .filter(Boolean)
    .join(', ');
  return finding('ISVC_READY', {
    subject: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    title: `${ctx.target.name} is ready${url ? ` at ${url}` : ''}`,
    evidence: [
      {
        kind: 'field',
        ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
        text: `url: ${url ?? 'none'}`,
      },
      ...(latestReady
        ? [
            {
              kind: 'field' as const,
              ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
              text: `ready revision: ${latestReady}`,
            },
          ]
        : []),
      { kind: 'field', ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name), text: `age: ${age}` },
    ],
  });
}

const TITLE_MAX = 240;

/**
 * A title is one line of at most 240 characters: the first line of a multi-line message, cut at its
 * end while the part that decides (an error, a status code, a refusal) fits before the cut. When it
 * would not, the playbook's own words before the first ": " stay whole and the message quoted after
 * them is cut around its deciding part instead.
 */
function oneLine(text: string): string {
  const first =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (first.length <= TITLE_MAX) return first;
  const span = decidingSpan(first);
  const colon = first.indexOf(': ');
  if (!span || span.start + 60 <= TITLE_MAX || colon <= 0 || colon > TITLE_MAX / 2) return cutLine(first, TITLE_MAX);
  return `${first.slice(0, colon)}: ${focusLine(first.slice(colon + 2), TITLE_MAX - colon - 2)}`;
}
