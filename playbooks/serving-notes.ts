/**
 * What a Ready service does that its owner may not expect (the "it works, but…" questions), as
 * context after the clean bill:
 * - a cluster-local URL (`*.svc.cluster.local`, Knative 1.8's default domain when none is set): the
 *   ingress gateway does not serve it, so requests from outside get 404;
 * - which serving runtime KServe chose when several fit the model format and protocol, with their
 *   priorities (and a runtime that gives one format different priorities, which makes the choice
 *   unpredictable);
 * - minReplicas 0 in RawDeployment mode: nothing scales a Deployment to zero (the HPA keeps 1).
 *
 * RBAC: list pods, list servingruntimes / clusterservingruntimes, list horizontalpodautoscalers.
 * Emits: URL_CLUSTER_LOCAL, RUNTIME_SELECTED, SCALE_TO_ZERO_UNAVAILABLE.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { deploymentModeOf, isvcLabelSelector, podsOf } from '../src/diagnosis/related-objects.js';
import { serviceNextStepContext } from '../src/diagnosis/service-next-step-context.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { componentsOf, isReady, isvcUrl, refOf } from '../src/kube/inference-service-view.js';
import { isModelContainer } from '../src/kube/pod-status.js';
import type { KubeObject } from '../src/kube/schemas.js';
import { isObj, type PlainObject as Obj } from '../src/core/plain-object.js';

export const servingNotes: Playbook = {
  id: 'serving-notes',
  title: 'What a Ready service does that may surprise',
  emits: ['URL_CLUSTER_LOCAL', 'RUNTIME_SELECTED', 'SCALE_TO_ZERO_UNAVAILABLE'],
  async run(ctx) {
    if (!isReady(ctx.target.isvc)) return [];
    const mode = await deploymentModeOf(ctx);
    const notes = await Promise.all([clusterLocalUrl(ctx, mode), runtimeSelected(ctx), scaleToZero(ctx, mode)]);
    return notes.flat();
  },
};

function subjectOf(ctx: DiagnosisContext): string {
  return refOf('InferenceService', ctx.target.namespace, ctx.target.name);
}

async function clusterLocalUrl(ctx: DiagnosisContext, mode: string): Promise<Finding[]> {
  const url = isvcUrl(ctx.target.isvc);
  if (mode !== 'Serverless' || !url || !/^https?:\/\/[^/]+\.svc(?:\.cluster\.local)?(?::\d+)?(?:\/|$)/.test(url))
    return [];
  const subject = subjectOf(ctx);
  return [
    finding('URL_CLUSTER_LOCAL', {
      subject,
      title: `${ctx.target.name}'s URL is cluster-local (${url}): the ingress gateway does not route it, so requests from outside the cluster get 404`,
      evidence: [
        { kind: 'field', ref: subject, text: `url: ${url}` },
        {
          kind: 'note',
          ref: refOf('ConfigMap', ctx.config.knativeNamespace, 'config-domain'),
          text: 'Knative gives a service a cluster-local URL when config-domain names no domain (the default since Knative 1.8, which dropped example.com) or the service is labelled cluster-local',
        },
      ],
    }),
  ];
}

interface Fit {
  ref: string;
  name: string;
  priorities: Array<{ version?: string; priority?: number }>;
  images: string[];
}

/** The repository of an image reference, without registry host for Docker Hub, tag or digest ("kserve/sklearnserver"). */
function repoOf(image: string): string {
  return image
    .replace(/@.*$/, '')
    .replace(/:[^/:]+$/, '')
    .replace(/^(?:index\.)?docker\.io\//, '');
}

async function runtimeSelected(ctx: DiagnosisContext): Promise<Finding[]> {
  const component = componentsOf(ctx.target.isvc).find((c) => c.name === 'predictor' && !c.canary);
  if (!component?.modelFormat || component.runtime) return [];
  let block: unknown = ctx.target.isvc;
  for (const key of component.modelPath) block = isObj(block) ? block[key] : undefined;
  const model = isObj(block) ? block : {};
  const version =
    isObj(model.modelFormat) && model.modelFormat.version !== undefined ? String(model.modelFormat.version) : undefined;
  const protocol = typeof model.protocolVersion === 'string' ? model.protocolVersion : 'v1';
  let all: Array<{ kind: string; o: KubeObject }>;
  try {
    const [namespaced, cluster] = await Promise.all([
      ctx.reader.listKind('ServingRuntime', ctx.target.namespace),
      ctx.reader.listKind('ClusterServingRuntime', undefined),
    ]);
    all = [
      ...namespaced.map((o) => ({ kind: 'ServingRuntime', o })),
      ...cluster.map((o) => ({ kind: 'ClusterServingRuntime', o })),
    ];
  } catch (error) {
    if (error instanceof ForbiddenError) return [];
    throw error;
  }
  const fits: Fit[] = all.flatMap(({ kind, o }) => {
    const spec = o.spec ?? {};
    if (spec.disabled === true) return [];
    const protocols = Array.isArray(spec.protocolVersions) ? (spec.protocolVersions as unknown[]).map(String) : ['v1'];
    const formats = (Array.isArray(spec.supportedModelFormats) ? (spec.supportedModelFormats as unknown[]) : [])
      .filter(isObj)
      .filter((f) => f.name === component.modelFormat && f.autoSelect === true);
    if (
      !protocols.includes(protocol) ||
      formats.length === 0 ||
      (version && !formats.some((f) => f.version === undefined || String(f.version) === version))
    )
      return [];
    const images = (Array.isArray(spec.containers) ? (spec.containers as unknown[]) : [])
      .filter(isObj)
      .map((c) => String(c.image ?? ''));
    return [
      {
        ref: refOf(kind, kind === 'ServingRuntime' ? ctx.target.namespace : undefined, o.metadata.name),
        name: o.metadata.name,
        priorities: formats.map((f) => ({
          ...(f.version !== undefined ? { version: String(f.version) } : {}),
          ...(typeof f.priority === 'number' ? { priority: f.priority } : {}),
        })),
        images,
      },
    ];
  });
  if (fits.length < 2) return [];
  const pods = await podsOf(ctx);
  const served = pods.flatMap((p) =>
    (p.spec?.containers ?? []).filter((c) => isModelContainer(c.name)).map((c) => repoOf(c.image ?? '')),
  );
  const chosen = fits.find((f) => f.images.some((i) => served.includes(repoOf(i))));
  const mixed = fits.filter((f) => new Set(f.priorities.map((p) => p.priority)).size > 1);
  const describe = (f: Fit) =>
    `${f.name} (${f.priorities.map((p) => `${component.modelFormat}${p.version ? ` ${p.version}` : ''}: priority ${p.priority ?? 'none'}`).join(', ')}; image ${f.images.join(', ')})`;
  const subject = subjectOf(ctx);
  const runtimeField = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace).fieldPath(
    'predictor',
    'runtime',
  );
  const evidence: Evidence[] = [
    {
      kind: 'field',
      ref: subject,
      text: `modelFormat: ${component.modelFormat}${version ? ` ${version}` : ''}; protocolVersion: ${protocol}; runtime: (chosen by KServe)`,
    },
    ...fits.map((f) => ({
      kind: 'field' as const,
      ref: f.ref,
      text: `${f === chosen ? 'serves it' : 'also fits'}: ${describe(f)}`,
    })),
    ...mixed.map((f) => ({
      kind: 'note' as const,
      ref: f.ref,
      text: `${f.name} gives ${component.modelFormat} different priorities per version; KServe's choice among runtimes does not follow them reliably (KServe 0.12 refuses such a runtime: one priority per model format)`,
    })),
  ];
  return [
    finding('RUNTIME_SELECTED', {
      subject,
      title: `${chosen ? `KServe chose ${chosen.name}` : 'KServe chose the runtime'} for ${component.modelFormat} (protocol ${protocol}) among ${fits.length} that fit: ${fits.map((f) => f.name).join(', ')}`,
      evidence,
      component: 'predictor',
      next: `To pick the runtime: kubectl edit inferenceservice ${ctx.target.name} -n ${ctx.target.namespace}: set ${runtimeField} to the one you want${mixed.length ? `; or give the ${component.modelFormat} entries of ${mixed.map((f) => f.name).join(', ')} one priority (kubectl edit clusterservingruntime ${mixed[0]?.name})` : ' (the highest priority among runtimes that fit wins)'}`,
    }),
  ];
}

async function scaleToZero(ctx: DiagnosisContext, mode: string): Promise<Finding[]> {
  if (mode !== 'RawDeployment') return [];
  const zero = componentsOf(ctx.target.isvc).filter((c) => !c.canary && isObj(c.spec) && c.spec.minReplicas === 0);
  if (zero.length === 0) return [];
  const hpas = await ctx.reader
    .listKind('HorizontalPodAutoscaler', ctx.target.namespace, isvcLabelSelector(ctx))
    .catch(() => []);
  const subject = subjectOf(ctx);
  const modeText = ctx.target.isvc.metadata.annotations?.['serving.kserve.io/deploymentMode']
    ? `serving.kserve.io/deploymentMode: ${ctx.target.isvc.metadata.annotations['serving.kserve.io/deploymentMode']}`
    : 'RawDeployment (the cluster default)';
  const fields = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace);
  return zero.map((c) => {
    const path = fields.fieldPath(c.name, 'serviceAccountName').replace(/serviceAccountName$/, 'minReplicas');
    return finding('SCALE_TO_ZERO_UNAVAILABLE', {
      subject,
      title: `${path} is 0, but a RawDeployment ${c.name} never scales to zero: its Deployment keeps at least one pod`,
      evidence: [
        { kind: 'field', ref: subject, text: modeText },
        { kind: 'field', ref: subject, text: `${path}: 0` },
        ...hpas.map((h) => ({
          kind: 'field' as const,
          ref: refOf('HorizontalPodAutoscaler', ctx.target.namespace, h.metadata.name),
          text: `minReplicas: ${String((h.spec as Obj | undefined)?.minReplicas ?? 1)}`,
        })),
      ],
      component: c.name,
    });
  });
}
