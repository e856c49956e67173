/**
 * A RawDeployment (Standard) service whose Ingress exists but is served by no ingress controller:
 * KServe writes the Ingress with `spec.ingressClassName` from the `ingressClassName` in the
 * `ingress` key of inferenceservice-config, and marks the service Ready with its URL as soon as the
 * Ingress is written, address or not. A controller serves only the Ingresses of its IngressClass:
 * an Ingress that names a class no IngressClass object defines (or names none while no IngressClass
 * is marked default, annotation `ingressclass.kubernetes.io/is-default-class`) gets no address, and
 * requests to the URL reach nothing. Read from the Ingress the service owns (its status has no
 * load-balancer address) and the cluster's IngressClasses (list, read only then); the next step names
 * the class asked for, the classes there are and the config key.
 */
import { finding } from '../findings/finding.js';
import type { Evidence, Finding } from '../findings/types.js';
import { refOf } from '../kube/inference-service-view.js';
import type { KubeObject } from '../kube/schemas.js';
import { ingressConfigOf, ingressValue } from './ingress-config.js';
import type { DiagnosisContext } from './playbook.js';
import { isObj } from '../core/plain-object.js';

const DEFAULT_CLASS = 'ingressclass.kubernetes.io/is-default-class';
const LEGACY_CLASS = 'kubernetes.io/ingress.class';

/** The load-balancer addresses an ingress controller wrote on the Ingress (none: no controller serves it). */
function addressesOf(ingress: KubeObject): string[] {
  const lb = isObj(ingress.status) && isObj(ingress.status.loadBalancer) ? ingress.status.loadBalancer : undefined;
  const entries = Array.isArray(lb?.ingress) ? (lb.ingress as unknown[]) : [];
  return entries.flatMap((e) => (isObj(e) ? [String(e.ip ?? e.hostname ?? '')].filter(Boolean) : []));
}

function ownedBy(o: KubeObject, name: string): boolean {
  return (o.metadata.ownerReferences ?? []).some((r) => r.kind === 'InferenceService' && r.name === name);
}

/** The service's Ingresses that no controller has given an address, with the class each asks for. */
export async function ingressClassCause(ctx: DiagnosisContext): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const ingresses = (await ctx.reader.listKind('Ingress', ns)).filter(
    (i) => ownedBy(i, ctx.target.name) && addressesOf(i).length === 0,
  );
  if (ingresses.length === 0) return [];
  const [classes, config] = await Promise.all([
    // denied, or a cluster before IngressClass (Kubernetes 1.18): nothing to compare the class with
    ctx.reader.listKind('IngressClass', undefined).catch(() => undefined),
    ingressConfigOf(ctx).catch(() => undefined),
  ]);
  if (!classes) return [];
  const names = classes.map((c) => c.metadata.name);
  const defaults = classes
    .filter((c) => c.metadata.annotations?.[DEFAULT_CLASS] === 'true')
    .map((c) => c.metadata.name);
  const out: Finding[] = [];
  for (const ingress of ingresses) {
    const wanted = typeof ingress.spec?.ingressClassName === 'string' ? ingress.spec.ingressClassName : undefined;
    // the class named by the annotation that came before the field is matched by the controllers themselves
    if (!wanted && ingress.metadata.annotations?.[LEGACY_CLASS]) continue;
    // a class that exists is served by whatever controller claims it; no class with a default is the default's
    if (wanted ? names.includes(wanted) : defaults.length > 0) continue;
    const ref = refOf('Ingress', ns, ingress.metadata.name);
    const there = classes.length
      ? classes
          .map((c) => `${c.metadata.name}${defaults.includes(c.metadata.name) ? ' (default)' : ''}${controllerOf(c)}`)
          .join(', ')
      : 'none';
    const configured = ingressValue(config, 'ingressClassName');
    const evidence: Evidence[] = [
      {
        kind: 'field',
        ref,
        text: `spec.ingressClassName: ${wanted ?? 'not set'}; status.loadBalancer: no address`,
      },
      {
        kind: 'field',
        ref: 'IngressClasses (kubectl get ingressclasses)',
        text: `${there}${classes.length && !defaults.length ? '; none is marked default' : ''}`,
      },
      ...(config
        ? [
            {
              kind: 'field' as const,
              ref: config.ref,
              text: `data.ingress: ${configured ? `"ingressClassName": "${configured}"` : 'no ingressClassName'}`,
            },
          ]
        : []),
    ];
    const cm = `kubectl edit configmap inferenceservice-config -n ${config?.namespace ?? 'kserve'}`;
    const other = names.find((n) => n !== wanted);
    const next = wanted
      ? `No IngressClass ${wanted} exists (the cluster has ${classes.length ? there : 'no IngressClass at all'}), so no ingress controller serves Ingress ${ns}/${ingress.metadata.name}: create the IngressClass ${wanted} (networking.k8s.io/v1, spec.controller of the ingress controller that should serve it, e.g. istio.io/ingress-controller for Istio), or ${cm}: set "ingressClassName" in the ingress key to ${other ? `a class that exists (${other})` : 'the class of an installed ingress controller'}`
      : `Ingress ${ns}/${ingress.metadata.name} names no ingressClassName and no IngressClass is marked default (IngressClasses: ${there}): ${cm}: set "ingressClassName" in the ingress key to ${other ? `a class that exists (${other})` : 'the class of an installed ingress controller (and create its IngressClass)'}, or mark one default (annotation ${DEFAULT_CLASS}: "true")`;
    out.push(
      finding('RAW_INGRESS_NO_CLASS', {
        subject: ref,
        title: wanted
          ? `Ingress ${ingress.metadata.name} asks for IngressClass ${wanted}, which does not exist: no ingress controller serves it and it has no address`
          : `Ingress ${ingress.metadata.name} names no IngressClass and the cluster has no default one: no ingress controller serves it`,
        evidence,
        next,
      }),
    );
  }
  return out;
}

function controllerOf(c: KubeObject): string {
  const controller = c.spec?.controller;
  return typeof controller === 'string' ? ` [${controller}]` : '';
}
