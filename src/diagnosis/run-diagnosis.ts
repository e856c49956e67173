/**
 * The diagnosis runner: one InferenceService (or LLMInferenceService) in, one Report out.
 *
 * 1. The first wave: the object by name under every served API version, and every read that needs
 *    only its name and namespace (pods, Knative objects, events, each playbook's declared reads),
 *    sent together while the playbooks' modules load (first-wave.ts).
 * 2. Not found: ISVC_NOT_FOUND naming close names and the namespaces that do hold the name (a bot
 *    request without -n follows the only one); forbidden: BOT_FORBIDDEN with the RBAC rule.
 * 3. Found: every playbook runs concurrently against one memoised ClusterReader (run-playbooks.ts);
 *    denied reads become BOT_FORBIDDEN findings; none failing: ISVC_READY.
 * 4. `finish`: root cause first (order-findings.ts), next steps built from the evidence
 *    (findings/next-step.ts), consequences tied to their cause, every string redacted.
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
import type { Evidence, Finding, Report } from '../findings/types.js';
import { makeKubeClients } from '../kube/client.js';
import { ClusterReader, type AnsweredReads, type FoundInferenceService } from '../kube/cluster-reader.js';
import { ForbiddenError, describeResource, type DeniedRequest } from '../kube/errors.js';
import { isReady, isvcUrl, refOf } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';
import { cutLine } from '../logs/cut-line.js';
import { decidingSpan, focusLine } from '../logs/focus-line.js';
import { shippedSignatures } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { withCanaryCause } from './canary-cause.js';
import { closeNames } from './close-names.js';
import { firstWaveTarget, startFirstWave } from './first-wave.js';
import { runPlaybooks } from './run-playbooks.js';
import {
  apiVersionOf,
  isvcPlaybooks,
  llmNextStepContext,
  llmReadyFinding,
  runLlmPlaybooks,
  sameNameFinding,
  startLlmFirstWave,
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
  const now = options.now ?? (() => new Date());
  const stats = () => ({ durationMs: Date.now() - started, apiRequests: clients.requestCount() });

  const load = typeof source === 'function' ? source : async () => source;
  let playbooks = typeof source === 'function' ? undefined : source;
  let reader!: ClusterReader;
  let found: FoundInferenceService | null | undefined;
  // an LLMInferenceService of the name: asked in the first wave when the kind is asked for, or when
  // the cluster is known to serve it (KServe 0.17+); undefined when not asked
  let llmLookup: Promise<FoundInferenceService | null> | undefined;
  const heldKind = options.inferenceService?.resource.plural === 'llminferenceservices' ? 'llmisvc' : undefined;
  const kind = target.kind ?? heldKind;
  try {
    // the first wave: the InferenceService and every read that depends only on its name and namespace
    for (let attempt = 0; attempt < 2; attempt += 1) {
      reader = new ClusterReader(clients);
      if (options.inferenceService && attempt === 0)
        reader.knowAs(target.namespace, target.name, options.inferenceService, kind ?? 'isvc');
      if (kind === 'llmisvc') {
        llmLookup = reader.llmInferenceService(target.namespace, target.name);
        llmLookup.catch(() => undefined);
        if (!playbooks) playbooks = await loadWhileRequestsAreOut(load);
        startLlmFirstWave(reader, firstWaveTarget(reader, target.namespace, target.name), config, playbooks);
        found = null;
        break;
      }
      // the InferenceService first: its answer comes back first, and the playbooks start on it
      const lookup = reader.inferenceService(target.namespace, target.name);
      llmLookup =
        kind !== 'isvc' && !options.inferenceService && reader.llmInferenceServiceLikelyServed()
          ? reader.llmInferenceService(target.namespace, target.name)
          : undefined;
      llmLookup?.catch(() => undefined);
      const waveTarget = firstWaveTarget(reader, target.namespace, target.name);
      if (!playbooks) {
        startFirstWave(reader, waveTarget, config, []);
        lookup.catch(() => undefined); // awaited below; not unhandled while the playbooks load
        playbooks = await loadWhileRequestsAreOut(load);
      }
      startFirstWave(reader, waveTarget, config, isvcPlaybooks(playbooks));
      if (llmLookup) startLlmFirstWave(reader, waveTarget, config, playbooks);
      // a discovery hint from an earlier process that a fresh discovery contradicts: start again by the fresh answer
      if (!(await reader.hintHeld())) {
        lookup.catch(() => undefined);
        await reader.settled();
        continue;
      }
      found = await lookup;
      // not found by a recent hint that went unchecked: a fresh discovery says whether to look again
      if (!found && !(llmLookup && (await llmLookup.catch(() => null))) && !(await reader.hintHeld(true))) {
        await reader.settled();
        continue;
      }
      break;
    }
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
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
  // an LLMInferenceService: asked for, or no InferenceService of the name (KServe 0.16 serves it at
  // v1alpha1 only, which every KServe serves for its runtimes: asked only now, a wave later)
  const llmRead =
    kind === 'llmisvc' || (!found && kind !== 'isvc')
      ? (llmLookup ?? reader.llmInferenceService(target.namespace, target.name))
      : undefined;
  const llm = llmRead
    ? await llmRead.catch((error: unknown) => {
        if (error instanceof ForbiddenError) return null;
        throw error;
      })
    : null;
  if (llm && (!found || kind === 'llmisvc')) {
    if (!llmLookup)
      startLlmFirstWave(reader, firstWaveTarget(reader, target.namespace, target.name), config, playbooks!);
    const { findings, ready } = await runLlmPlaybooks(playbooks!, reader, target, llm, config, options, now);
    await reader.settled();
    findings.push(...forbiddenFindings(reader.denied(), target));
    if (ready && !findings.some((f) => f.severity !== 'info')) findings.push(llmReadyFinding(target, llm, now()));
    const ordered = finish(mergeDuplicates(findings), llmNextStepContext(target, config.knativeNamespace));
    const first = ordered[0];
    const report: Report = {
      target: { namespace: target.namespace, name: target.name, apiVersion: apiVersionOf(llm), kind: 'llmisvc' },
      ready,
      rootCause: first && first.severity !== 'info' ? first.code : null,
      findings: ordered,
      stats: stats(),
    };
    answeredByReport.set(report, reader.answered());
    return report;
  }
  if (!found) {
    const { finding: notFound, otherNamespaces } = await notFoundFinding(reader, target);
    await reader.settled();
    const { namespaceDefaulted, ...asked } = target;
    const only = namespaceDefaulted ? onlyOtherNamespace(otherNamespaces, config) : undefined;
    if (only) {
      const report = await runDiagnosis(playbooks ?? source, kubeConfig, { ...asked, namespace: only }, options);
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

  const running = playbooks!; // loaded by the first wave, which every path to here went through
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
    signatures: options.signatures ?? shippedSignatures(),
    signal: options.signal ?? new AbortController().signal,
    now,
  };
  const findings = await runPlaybooks(isvcPlaybooks(running), ctx);
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
  const rootCause = first && first.severity !== 'info' ? first.code : null;
  const report: Report = {
    target: { namespace: target.namespace, name: target.name, apiVersion },
    ready,
    rootCause,
    findings: ordered,
    stats: stats(),
  };
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
