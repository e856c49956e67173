import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_DIAGNOSIS_CONFIG, type DiagnosisConfig } from '../config.js';
import { humanDuration } from '../core/duration.js';
import { errorMessage } from '../core/error-message.js';
import type { TargetRef } from '../core/target-ref.js';
import { finding } from '../findings/finding.js';
import { genericNextStepContext, type NextStepContext } from '../findings/next-step-context.js';
import { withNextStep } from '../findings/next-step.js';
import { orderFindings } from '../findings/order-findings.js';
import { redactFinding } from '../findings/redact-finding.js';
import type { Evidence, Finding, Report } from '../findings/types.js';
import { makeKubeClients } from '../kube/client.js';
import { ClusterReader, type AnsweredReads } from '../kube/cluster-reader.js';
import { ClusterUnreachableError, ForbiddenError, describeResource, type DeniedRequest } from '../kube/errors.js';
import { isReady, isvcUrl, refOf } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';
import { cutLine } from '../logs/cut-line.js';
import { shippedSignatures } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { withCanaryCause } from './canary-cause.js';
import { closeNames } from './close-names.js';
import { firstWaveTarget, startFirstWave } from './first-wave.js';
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

/**
 * The playbooks a diagnosis runs, or a loader of them. A loader is called once the first wave's
 * shared reads and the InferenceService lookup are out, so the playbooks' modules load while the
 * cluster answers (a CLI process loads them once, in the time of that round trip); their own
 * first-wave reads follow as soon as they are loaded, before any answer is needed.
 */
export type PlaybookSource = readonly Playbook[] | (() => Promise<readonly Playbook[]>);

/** Lets the requests just started go out (one turn of the event loop: connections opened, requests written), then calls `load`. */
async function loadWhileRequestsAreOut<T>(load: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  return load();
}

/** What each report's diagnosis read (kept while the report is): a remediation offered from it plans with these. */
const answeredByReport = new WeakMap<Report, AnsweredReads>();

/** The reads behind a report this process made (undefined for a report from elsewhere, e.g. a queue's copy). */
export function answeredReadsOf(report: Report): AnsweredReads | undefined {
  return answeredByReport.get(report);
}

/** Findings as a report carries them: ordered (root cause first), each with its next step, redacted. */
function finish(findings: Finding[], next: NextStepContext): Finding[] {
  // redacted before the title is cut, so a cut never leaves part of a secret behind
  return withCanaryCause(orderFindings(findings)).map((f) => {
    const redacted = redactFinding(withNextStep(f, next));
    return { ...redacted, title: oneLine(redacted.title) };
  });
}

/**
 * Diagnoses one InferenceService with the given playbooks: finds it under any supported API
 * version, runs every playbook concurrently against a memoised reader, and returns the findings
 * with the root cause first. Throws ClusterUnreachableError only when the InferenceService itself
 * cannot be read.
 */
export async function runDiagnosis(source: PlaybookSource, kubeConfig: KubeConfig, target: TargetRef, options: DiagnoseOptions = {}): Promise<Report> {
  const started = Date.now();
  const clients = makeKubeClients(kubeConfig);
  const config: DiagnosisConfig = { ...DEFAULT_DIAGNOSIS_CONFIG, ...options.config };
  const now = options.now ?? (() => new Date());
  const stats = () => ({ durationMs: Date.now() - started, apiRequests: clients.requestCount() });

  const load = typeof source === 'function' ? source : async () => source;
  let playbooks = typeof source === 'function' ? undefined : source;
  let reader!: ClusterReader;
  let found;
  try {
    // the first wave: the InferenceService and every read that depends only on its name and namespace
    for (let attempt = 0; attempt < 2; attempt += 1) {
      reader = new ClusterReader(clients);
      if (options.inferenceService && attempt === 0) reader.know(target.namespace, target.name, options.inferenceService);
      // the InferenceService first: its answer comes back first, and the playbooks start on it
      const lookup = reader.inferenceService(target.namespace, target.name);
      const waveTarget = firstWaveTarget(reader, target.namespace, target.name);
      if (!playbooks) {
        startFirstWave(reader, waveTarget, config, []);
        lookup.catch(() => undefined); // awaited below; not unhandled while the playbooks load
        playbooks = await loadWhileRequestsAreOut(load);
      }
      startFirstWave(reader, waveTarget, config, playbooks);
      // a discovery hint from an earlier process that a fresh discovery contradicts: start again by the fresh answer
      if (!(await reader.hintHeld())) {
        lookup.catch(() => undefined);
        await reader.settled();
        continue;
      }
      found = await lookup;
      // not found by a recent hint that went unchecked: a fresh discovery says whether to look again
      if (!found && !(await reader.hintHeld(true))) {
        await reader.settled();
        continue;
      }
      break;
    }
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    await reader.settled();
    const findings = finish(forbiddenFindings(reader.denied(), target), genericNextStepContext(target, config.knativeNamespace));
    return { target: { ...target, apiVersion: null }, ready: false, rootCause: findings[0]?.code ?? null, findings, stats: stats() };
  }
  if (!found) {
    const notFound = await notFoundFinding(reader, target);
    await reader.settled();
    const findings = finish([notFound], genericNextStepContext(target, config.knativeNamespace));
    return { target: { ...target, apiVersion: null }, ready: false, rootCause: 'ISVC_NOT_FOUND', findings, stats: stats() };
  }

  const running = playbooks!; // loaded by the first wave, which every path to here went through
  const apiVersion = `${found.resource.group}/${found.resource.version}`;
  const ctx: DiagnosisContext = {
    target: { ...target, resource: found.resource, apiVersion, isvc: found.object },
    reader,
    config,
    signatures: options.signatures ?? shippedSignatures(),
    signal: options.signal ?? new AbortController().signal,
    now,
  };
  const results = await Promise.allSettled(running.map((p) => p.run(ctx)));
  const findings: Finding[] = [];
  results.forEach((result, i) => {
    const playbook = running[i]!;
    if (result.status === 'fulfilled') findings.push(...result.value.map((f) => ({ ...f, playbook: playbook.id })));
    else if (result.reason instanceof ClusterUnreachableError) findings.push(checkFailed(playbook, result.reason, target));
    else if (!(result.reason instanceof ForbiddenError)) findings.push(checkFailed(playbook, result.reason, target));
  });
  await reader.settled();
  findings.push(...forbiddenFindings(reader.denied(), target));

  const ready = isReady(found.object);
  const problems = findings.filter((f) => f.severity !== 'info');
  if (ready && problems.length === 0) findings.push(readyFinding(ctx));
  const ordered = finish(mergeDuplicates(findings), serviceNextStepContext(ctx.target, config.knativeNamespace));
  const first = ordered[0];
  const rootCause = first && first.severity !== 'info' ? first.code : null;
  const report: Report = { target: { namespace: target.namespace, name: target.name, apiVersion }, ready, rootCause, findings: ordered, stats: stats() };
  answeredByReport.set(report, reader.answered());
  return report;
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
    return Boolean(a.component && a.component === b.component && [a.subject, b.subject].some((s) => s.startsWith('InferenceService ')));
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
    ...(base.next ?? other.next ? { next: base.next ?? other.next } : {}),
    ...(explains.length ? { explains } : {}),
  };
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
        { kind: 'note', ref: `RBAC ${d.namespace ? `Role in ${d.namespace}` : 'ClusterRole'}`, text: `denied: ${d.verb} ${describeResource(d)}${where}` },
        { kind: 'note', ref: 'RBAC rule that would allow it', text: rule },
      ],
    });
  });
}

async function notFoundFinding(reader: ClusterReader, target: TargetRef): Promise<Finding> {
  let names: string[] = [];
  try {
    names = await reader.inferenceServiceNames(target.namespace);
  } catch {
    names = [];
  }
  const close = closeNames(target.name, names);
  const versions = await reader.inferenceServiceVersions().catch(() => [...INFERENCE_SERVICE_VERSIONS]);
  const groups = versions.map((r) => `${r.group}/${r.version}`).join(', ');
  return finding('ISVC_NOT_FOUND', {
    subject: refOf('InferenceService', target.namespace, target.name),
    title: `No InferenceService "${target.name}" in namespace ${target.namespace}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`,
    evidence: [
      { kind: 'field', ref: `Namespace ${target.namespace}`, text: `searched namespace ${target.namespace} under ${groups}` },
      { kind: 'note', ref: `Namespace ${target.namespace}`, text: `${versions[0] ? `${versions[0].plural}.${versions[0].group}` : 'inferenceservices'} "${target.name}" not found` },
      { kind: 'field', ref: `Namespace ${target.namespace}`, text: close.length ? `close names that exist: ${close.join(', ')}` : `InferenceServices there: ${names.slice(0, 20).join(', ') || 'none'}` },
    ],
  });
}

function checkFailed(playbook: Playbook, error: unknown, target: TargetRef): Finding {
  const message = errorMessage(error, 2000);
  return finding('CLUSTER_UNREACHABLE', {
    subject: `Check ${playbook.id} for InferenceService ${target.namespace}/${target.name}`,
    title: `Check "${playbook.title}" could not run: ${message}`,
    evidence: [{ kind: 'note', ref: `playbook ${playbook.id}`, text: message }],
  });
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
      { kind: 'field', ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name), text: `url: ${url ?? 'none'}` },
      ...(latestReady ? [{ kind: 'field' as const, ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name), text: `ready revision: ${latestReady}` }] : []),
      { kind: 'field', ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name), text: `age: ${age}` },
    ],
  });
}

/** A title is one line: the first line of a multi-line message, at most 240 characters. */
function oneLine(text: string): string {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return cutLine(first, 240);
}
