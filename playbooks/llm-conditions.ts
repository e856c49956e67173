/**
 * An LLMInferenceService's conditions, walked as its controller rolls them up (KServe 0.16-0.20):
 * Ready <- WorkloadsReady (MainWorkloadReady, WorkerWorkloadReady, PrefillWorkloadReady,
 * PrefillWorkerWorkloadReady, ScalingReady, PrefillScalingReady) and RouterReady (GatewaysReady,
 * HTTPRoutesReady, InferencePoolReady, SchedulerWorkloadReady, TokenizerReady): a rolled-up
 * condition copies the reason and message of the first False sub-condition. PresetsCombined (the
 * merge of spec.baseRefs and the well-known LLMInferenceServiceConfigs) is outside that rollup: when
 * it is False the controller stops before creating anything, and Ready may still read True from
 * an older status, so it is read on its own. A service with no status, a status older than its
 * spec, or a sub-condition that reports a reconcile error sends the diagnosis to the llmisvc
 * controller's log (its own Deployment since 0.17), read bounded, for the lines that name it.
 *
 * RBAC: list pods in every namespace (the controller's, by label), get pods/log.
 * Emits: LLM_CONFIG_MERGE_FAILED, LLMISVC_NOT_READY, CONTROLLER_RECONCILE_FAILED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { controllerContainerOf, podLinesAbout, type ControllerLines } from '../src/diagnosis/controller-lines.js';
import {
  LLM_CONTROLLER_SELECTOR,
  LLM_KIND,
  conditionText,
  conditionsOf,
  llmSpecOf,
} from '../src/diagnosis/llm-objects.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { refOf } from '../src/kube/inference-service-view.js';
import type { Condition } from '../src/kube/schemas.js';

const ROLLUP: Record<string, readonly string[]> = {
  WorkloadsReady: [
    'MainWorkloadReady',
    'WorkerWorkloadReady',
    'PrefillWorkloadReady',
    'PrefillWorkerWorkloadReady',
    'ScalingReady',
    'PrefillScalingReady',
  ],
  RouterReady: ['GatewaysReady', 'HTTPRoutesReady', 'InferencePoolReady', 'SchedulerWorkloadReady', 'TokenizerReady'],
};

export const llmConditions: Playbook = {
  id: 'llm-conditions',
  kind: 'llmisvc',
  title: "The LLMInferenceService's conditions and its controller",
  emits: ['LLM_CONFIG_MERGE_FAILED', 'LLMISVC_NOT_READY', 'CONTROLLER_RECONCILE_FAILED'],
  firstWave: (reader) => [reader.podsAllNamespaces(LLM_CONTROLLER_SELECTOR)],
  async run(ctx) {
    const { namespace, name } = ctx.target;
    const subject = refOf(LLM_KIND, namespace, name);
    const conditions = conditionsOf(ctx.target.isvc);
    const byType = new Map(conditions.map((c) => [c.type, c]));
    const ready = byType.get('Ready');
    const presets = byType.get('PresetsCombined');
    const findings: Finding[] = [];
    if (presets && presets.status === 'False' && presets.reason !== 'Stopped')
      findings.push(configMergeFinding(ctx, presets, ready));
    const stopped = conditions.some((c) => c.reason === 'Stopped');
    if (ready?.status !== 'True' && !stopped) findings.push(notReadyFinding(ctx, byType, ready));
    const generation = ctx.target.isvc.metadata.generation;
    const observed = ctx.target.isvc.status?.observedGeneration;
    const stale = generation !== undefined && observed !== undefined && observed < generation;
    const reconcileError = conditions.find(
      (c) => c.status === 'False' && /Reconcile\w*Error$|FetchError$/.test(c.reason ?? ''),
    );
    if (
      conditions.length === 0 ||
      stale ||
      reconcileError ||
      findings.some((f) => f.code === 'LLM_CONFIG_MERGE_FAILED')
    ) {
      const lines = await controllerLines(ctx);
      if (lines || conditions.length === 0 || stale || reconcileError)
        findings.push(
          reconcileFinding(ctx, subject, lines, reconcileError, stale ? { generation, observed } : undefined),
        );
    }
    return findings;
  },
};

function configMergeFinding(ctx: DiagnosisContext, presets: Condition, ready: Condition | undefined): Finding {
  const { namespace, name } = ctx.target;
  const subject = refOf(LLM_KIND, namespace, name);
  const message = presets.message ?? '';
  const missing =
    /LLMInferenceServiceConfig (?:\\?")?([\w.-]+)(?:\\?")? (?:not found|from namespaces)/.exec(message)?.[1] ??
    /"([\w.-]+)" not found/.exec(message)?.[1];
  const searched = /from namespaces \[([^\]]*)\]/.exec(message)?.[1]?.replace(/\\?"/g, '');
  const baseRefs = llmSpecOf(ctx).baseRefs;
  const evidence: Evidence[] = [
    { kind: 'condition', ref: subject, text: conditionText(presets) },
    ...(baseRefs.length
      ? [{ kind: 'field' as const, ref: subject, text: `spec.baseRefs: ${baseRefs.join(', ')}` }]
      : []),
    ...(ready?.status === 'True'
      ? [
          {
            kind: 'note' as const,
            ref: subject,
            text: 'Ready=True here is left from an earlier reconcile: in KServe 0.16-0.20 Ready does not roll up PresetsCombined, and the controller stops before applying the spec',
          },
        ]
      : []),
  ];
  const inRefs = missing && baseRefs.includes(missing);
  const next = missing
    ? inRefs
      ? `kubectl get llminferenceserviceconfig ${missing} -n ${namespace}; kubectl get llminferenceserviceconfig ${missing} -n kserve: it exists in neither${searched ? ` (searched ${searched})` : ''}: create it, or remove ${missing} from spec.baseRefs of llminferenceservice ${name} -n ${namespace}`
      : `kubectl get llminferenceserviceconfigs -n kserve: the well-known preset ${missing} that this spec needs (${missing.replace(/^kserve-config-llm-/, '')}) is not installed${searched ? ` (searched ${searched})` : ''}: install KServe's LLMInferenceServiceConfig presets of your release (the kserve-llmisvc-resources chart / config/llmisvcconfig) in the kserve namespace, or change the spec field that selects it`
    : `kubectl get llminferenceservice ${name} -n ${namespace} -o yaml: fix what PresetsCombined says (${presets.reason ?? 'merge failed'}) in spec or in the LLMInferenceServiceConfigs of spec.baseRefs`;
  return finding('LLM_CONFIG_MERGE_FAILED', {
    subject,
    title: missing
      ? `LLMInferenceServiceConfig ${missing} is not found, so the controller cannot merge the service's configs (${presets.reason})`
      : `The service's configs do not merge: ${presets.reason ?? 'PresetsCombined=False'}${message ? `: ${message}` : ''}`,
    evidence,
    next,
    explains: ['CONTROLLER_RECONCILE_FAILED'],
  });
}

/** Ready and the chain of sub-conditions behind it, deepest first in the title. */
function notReadyFinding(ctx: DiagnosisContext, byType: Map<string, Condition>, ready: Condition | undefined): Finding {
  const { namespace, name } = ctx.target;
  const subject = refOf(LLM_KIND, namespace, name);
  const chain: Condition[] = [];
  for (const [parent, subs] of Object.entries(ROLLUP)) {
    const p = byType.get(parent);
    if (p?.status === 'True') continue;
    if (p) chain.push(p);
    for (const s of subs) {
      const c = byType.get(s);
      if (c && c.status !== 'True') chain.push(c);
    }
  }
  const deepest = chain.find((c) => !(c.type in ROLLUP)) ?? chain[0];
  return finding('LLMISVC_NOT_READY', {
    subject,
    title: deepest
      ? `Not ready: ${deepest.type}=${deepest.status ?? 'Unknown'}${deepest.reason ? ` (${deepest.reason})` : ''}${deepest.message ? `: ${deepest.message}` : ''}`
      : ready
        ? `Not ready: ${conditionText(ready)}`
        : 'The LLMInferenceService has no Ready condition yet',
    evidence: [
      ...(ready ? [{ kind: 'condition' as const, ref: subject, text: conditionText(ready) }] : []),
      ...chain.map((c) => ({ kind: 'condition' as const, ref: subject, text: conditionText(c) })),
    ],
  });
}

/** The llmisvc controller's lines about the service (the llmisvc controller's pods first; KServe's when there are none). */
async function controllerLines(ctx: DiagnosisContext): Promise<ControllerLines | null> {
  let pods: V1Pod[];
  try {
    pods = await ctx.reader.podsAllNamespaces(LLM_CONTROLLER_SELECTOR);
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
  const running = pods.filter((p) => p.status?.phase === 'Running' || !p.status?.phase);
  const pod = running.find((p) => p.metadata?.labels?.['control-plane'] === 'llmisvc-controller-manager') ?? running[0];
  if (!pod) return null;
  const read = await podLinesAbout(ctx, pod, controllerContainerOf(pod));
  if (read.lines.length === 0) return null;
  // the last few: the controller retries, and its latest attempt says what blocks it now
  return { ...read, lines: read.lines.slice(-8), lineNumbers: read.lineNumbers.slice(-8) };
}

function reconcileFinding(
  ctx: DiagnosisContext,
  subject: string,
  lines: ControllerLines | null,
  condition: Condition | undefined,
  stale: { generation?: number; observed?: number } | undefined,
): Finding {
  const { namespace, name } = ctx.target;
  const errorLine = lines?.lines.filter((l) => /"level":"error"|error/i.test(l)).at(-1);
  const error = errorLine ? (/"error":"((?:[^"\\]|\\.)*)"/.exec(errorLine)?.[1] ?? errorLine) : condition?.message;
  return finding('CONTROLLER_RECONCILE_FAILED', {
    subject,
    title: error
      ? `The llmisvc controller fails to reconcile ${name}: ${error.replace(/\\"/g, '"')}`
      : stale
        ? `The llmisvc controller has not reconciled generation ${stale.generation} of ${name} (status is of generation ${stale.observed})`
        : `The llmisvc controller has written no status for ${name}`,
    evidence: [
      ...(condition ? [{ kind: 'condition' as const, ref: subject, text: conditionText(condition) }] : []),
      ...(stale
        ? [
            {
              kind: 'field' as const,
              ref: subject,
              text: `metadata.generation ${stale.generation}, status.observedGeneration ${stale.observed}`,
            },
          ]
        : []),
      ...(lines
        ? [
            {
              kind: 'log' as const,
              ref: lines.ref,
              container: lines.container,
              excerpt: lines.lines,
              lineNumbers: lines.lineNumbers,
              truncated: false,
            },
          ]
        : []),
    ],
    next: error
      ? `the llmisvc controller refuses ${namespace}/${name} with: ${error.replace(/\\"/g, '"').slice(0, 240)}; change the spec of llminferenceservice ${name} (or the object the error names) so it can apply it, then check kubectl logs -n kserve deploy/llmisvc-controller-manager | grep ${name}`
      : `Evidence missing: the controller's log has no line about ${namespace}/${name}; kubectl logs -n kserve deploy/llmisvc-controller-manager | grep ${name}, and check that the controller runs and watches namespace ${namespace}`,
  });
}
