/**
 * The storage-initializer was never injected. KServe's pod webhook adds the storage-initializer
 * init container to pods that carry the storage-initializer-sourceuri annotation; it skips
 * namespaces labelled `control-plane` (the KServe / Kubeflow control-plane namespaces) and pods
 * outside its selectors, and cannot act when it is not installed. Such a pod runs without
 * /mnt/models: the model server finds no model (TF Serving: "Could not find base path") and the
 * revision never becomes ready, with no probe event. Says which: the namespace's labels against the
 * webhook's namespaceSelector (the next step meets the requirement the namespace fails, or leaves a
 * control-plane namespace), a webhook that serves the namespace yet did not act (its endpoints), or
 * no webhook at all.
 *
 * RBAC: list pods, get pods/log, get namespaces, list mutatingwebhookconfigurations.
 * Emits: STORAGE_INITIALIZER_NOT_INJECTED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { finding } from '../src/findings/finding.js';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import { modelServerContainer } from '../src/diagnosis/model-server-container.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { signatureFindings } from '../src/diagnosis/signature-findings.js';
import type { Evidence } from '../src/findings/types.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { refOf } from '../src/kube/inference-service-view.js';
import {
  describeLabelSelector,
  type LabelSelector,
  type UnmetRequirement,
  unmetRequirements,
} from '../src/kube/label-selector.js';
import { STORAGE_INITIALIZER } from '../src/kube/pod-status.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';

/** Set on pods whose model KServe's local model cache serves from a node's disk (the webhook mounts its PVC). */
const LOCAL_MODEL_LABEL = 'internal.serving.kserve.io/localmodel';
const SOURCE_URI = /^internal\.serving\.(kserve\.io|kubeflow\.org)\/storage-initializer-sourceuri$/;

export const storageInitializerInjection: Playbook = {
  id: 'storage-initializer-injection',
  title: 'The storage-initializer was not injected',
  emits: ['STORAGE_INITIALIZER_NOT_INJECTED'],
  async run(ctx) {
    const pod = (await podsOf(ctx)).find(notInjected);
    if (!pod) return [];
    const annotation = Object.entries(pod.metadata?.annotations ?? {}).find(([k]) => SOURCE_URI.test(k));
    if (!annotation) return []; // notInjected picked a pod with one
    const ns = ctx.target.namespace;
    const name = pod.metadata?.name ?? '?';
    const subject = refOf('Pod', ns, name);
    const [webhooks, log] = await Promise.all([webhookEvidence(ctx), modelLogEvidence(ctx, pod)]);
    const init = (pod.spec?.initContainers ?? []).map((c) => c.name);
    return [
      finding('STORAGE_INITIALIZER_NOT_INJECTED', {
        subject,
        title: `The pod should download ${annotation[1]} but has no storage-initializer: KServe's pod webhook did not act on it`,
        evidence: [
          { kind: 'field', ref: subject, text: `${annotation[0]}: ${annotation[1]}` },
          { kind: 'field', ref: subject, text: `initContainers: [${init.join(', ')}]${init.length ? '' : ' (none)'}` },
          ...webhooks.evidence,
          ...log,
        ],
        component: componentOf(pod.metadata?.labels),
        revision: revisionOfPod(pod),
        next: nextStep(webhooks.state, ns, name),
      }),
    ];
  },
};

/**
 * A pod that should download its model (annotation) but has no storage-initializer (and no modelcar
 * doing it instead, nor the local model cache's PVC, which the webhook mounts in its place).
 */
function notInjected(pod: V1Pod): boolean {
  if (!Object.keys(pod.metadata?.annotations ?? {}).some((k) => SOURCE_URI.test(k))) return false;
  if (pod.metadata?.labels?.[LOCAL_MODEL_LABEL]) return false;
  const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  return !names.includes(STORAGE_INITIALIZER) && !names.some((n) => n.startsWith('modelcar'));
}

/** What the webhooks say about the namespace: none installed, one skipping it (and why), one serving it, or unread. */
type WebhookState =
  | { is: 'absent' }
  | { is: 'skips'; webhook: string; unmet: UnmetRequirement[] }
  | { is: 'serves'; webhook: string; service?: { name: string; namespace: string } }
  | { is: 'unread' };

interface PodWebhook {
  config: string;
  name: string;
  namespaceSelector?: LabelSelector;
  rules?: Array<{ resources?: string[] }>;
  clientConfig?: { service?: { name?: string; namespace?: string } };
}

/** The namespace's labels against the namespaceSelector of KServe's pod webhook, or the webhook's absence. */
async function webhookEvidence(ctx: DiagnosisContext): Promise<{ evidence: Evidence[]; state: WebhookState }> {
  const ns = ctx.target.namespace;
  try {
    const [namespace, configs] = await Promise.all([
      ctx.reader.namespace(ns),
      ctx.reader.listKind('MutatingWebhookConfiguration', undefined),
    ]);
    const labels = namespace?.metadata?.labels ?? {};
    const nsRef = refOf('Namespace', undefined, ns);
    const evidence: Evidence[] = [
      {
        kind: 'field',
        ref: nsRef,
        text: `labels: ${
          Object.entries(labels)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ') || '(none)'
        }`,
      },
    ];
    const podWebhooks: PodWebhook[] = configs.flatMap((c) =>
      ((c as unknown as { webhooks?: Omit<PodWebhook, 'config'>[] }).webhooks ?? [])
        .filter(
          (w) => (w.rules ?? []).some((r) => (r.resources ?? []).includes('pods')) && /kserve|kfserving/.test(w.name),
        )
        .map((w) => ({ config: c.metadata.name, ...w })),
    );
    if (podWebhooks.length === 0) {
      evidence.push({
        kind: 'note',
        ref: 'MutatingWebhookConfigurations',
        text: 'no KServe / KFServing pod webhook is installed: nothing injects the storage-initializer',
      });
      return { evidence, state: { is: 'absent' } };
    }
    let state: WebhookState | undefined;
    for (const w of podWebhooks) {
      const unmet = unmetRequirements(w.namespaceSelector, labels);
      evidence.push({
        kind: 'field',
        ref: refOf('MutatingWebhookConfiguration', undefined, w.config),
        text: `webhook ${w.name}: namespaceSelector ${describeLabelSelector(w.namespaceSelector)}${unmet.length ? ` — skips namespace ${ns}` : ''}`,
      });
      const service = w.clientConfig?.service;
      if (unmet.length === 0)
        state = {
          is: 'serves',
          webhook: w.name,
          ...(service?.name && service.namespace
            ? { service: { name: service.name, namespace: service.namespace } }
            : {}),
        };
      else state ??= { is: 'skips', webhook: w.name, unmet };
    }
    return { evidence, state: state ?? { is: 'absent' } };
  } catch (error) {
    if (error instanceof ForbiddenError)
      return {
        evidence: [
          {
            kind: 'note',
            ref: `Namespace ${ns}`,
            text: `the namespace's labels and the webhooks could not be read: ${error.message}`,
          },
        ],
        state: { is: 'unread' },
      };
    throw error;
  }
}

/** KServe and Kubeflow label their own control-plane namespaces so; KServe does not serve models from them. */
const CONTROL_PLANE_LABEL = 'control-plane';

/**
 * The next step from what the webhooks said: the namespace label the skipping webhook's selector
 * wants (or refuses), the webhook's service when one serves the namespace yet did not act, or its
 * reinstall when none is installed. A re-created pod is the one the webhook sees.
 */
function nextStep(state: WebhookState, ns: string, pod: string): string {
  const recreate = `kubectl delete pod ${pod} -n ${ns} so it is created again through the webhook`;
  switch (state.is) {
    case 'skips': {
      if (state.unmet.some((r) => r.key === CONTROL_PLANE_LABEL && r.actual !== undefined))
        return `create the InferenceService in a namespace without the ${CONTROL_PLANE_LABEL} label: webhook ${state.webhook} skips ${ns}, which has ${state.unmet.map(labelHas).join(', ')}, and KServe does not serve models from its control-plane namespaces`;
      return `${state.unmet.map((r) => labelFix(r, ns)).join('; ')} (webhook ${state.webhook} skips ${ns}: ${state.unmet.map(labelHas).join(', ')}), then ${recreate}`;
    }
    case 'serves':
      return `webhook ${state.webhook} serves ${ns} but did not act on the pod: ${
        state.service
          ? `kubectl get endpoints ${state.service.name} -n ${state.service.namespace} (a webhook with no ready endpoints and failurePolicy Ignore lets pods through unchanged)`
          : 'check that its server is running'
      }, then ${recreate}`;
    case 'absent':
      return `install KServe's pod webhook (kubectl get mutatingwebhookconfigurations lists no KServe webhook with a pods rule; re-apply the KServe release manifests), then ${recreate}`;
    case 'unread':
      return `kubectl get namespace ${ns} --show-labels and kubectl get mutatingwebhookconfigurations (the bot may not read them): KServe's pod webhook skips namespaces its namespaceSelector excludes; then ${recreate}`;
  }
}

/** "control-plane=kubeflow" / "no serving.kubeflow.org/inferenceservice label": what the namespace has for a requirement's key. */
function labelHas(r: UnmetRequirement): string {
  return r.actual === undefined ? `no ${r.key} label` : `${r.key}=${r.actual}`;
}

/** The kubectl label command that meets one unmet requirement of a namespaceSelector. */
function labelFix(r: UnmetRequirement, ns: string): string {
  switch (r.operator) {
    case 'DoesNotExist':
      return `kubectl label namespace ${ns} ${r.key}-`;
    case 'NotIn':
      return `kubectl label namespace ${ns} ${r.key}- (the selector refuses ${r.values.join(', ')})`;
    case 'Exists':
      return `kubectl label namespace ${ns} ${r.key}=enabled (the selector asks only that ${r.key} is set)`;
    default:
      return `kubectl label namespace ${ns} ${r.key}=${r.values[0] ?? ''} --overwrite`;
  }
}

/** What the model server logs without /mnt/models (the line that shows the model is absent). */
async function modelLogEvidence(ctx: DiagnosisContext, pod: V1Pod): Promise<Evidence[]> {
  const container = modelServerContainer(pod);
  if (!container) return [];
  const name = pod.metadata?.name ?? '?';
  const log = await readContainerLog(ctx, ctx.target.namespace, name, container, { head: true, currentOnly: true });
  if (!log.text) return [];
  const source = {
    where: 'model-log' as const,
    ref: refOf('Pod', ctx.target.namespace, name),
    kind: 'log' as const,
    container,
    previous: false,
    lines: splitLogLines(log.text),
  };
  const { findings } = signatureFindings(ctx, source, { subject: source.ref }, versionFactsOf(ctx, [pod]));
  return findings
    .filter((f) => f.code === 'MODEL_FILE_MISSING')
    .flatMap((f) => f.evidence.filter((e) => e.kind === 'log'))
    .slice(0, 1);
}
