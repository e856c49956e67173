/**
 * Why the controller made no Ingress / HTTPRoute for a RawDeployment (Standard) service, read from
 * the mechanism: the kind and API version it writes (an HTTPRoute at gateway.networking.k8s.io/v1
 * when inferenceservice-config's `ingress.enableGatewayApi` is on, else an Ingress at
 * networking.k8s.io/v1, or the kind and version its own refusal names: `no matches for kind "K" in
 * version "G/V"`) against the versions the cluster serves (discovery), and the `ingress` key against
 * the keys the controller requires (`invalid ingress config - X [and Y] are required` names them;
 * ingressGateway always, kserveIngressGateway with the Gateway API, ingressDomain with a
 * pathTemplate). The next step names the missing API version or key and the remedy: the
 * Kubernetes or KServe release that serves / writes it, the Gateway API CRDs to install, the key to
 * set in the ConfigMap.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { finding } from '../findings/finding.js';
import type { Evidence, Finding } from '../findings/types.js';
import { refOf } from '../kube/inference-service-view.js';
import { ForbiddenError } from '../kube/errors.js';
import { splitLogLines } from '../logs/log-excerpt.js';
import { controllerContainerOf, controllerLinesAbout, controllerPods } from './controller-lines.js';
import { type IngressConfig, ingressConfigOf, ingressValue } from './ingress-config.js';
import type { DiagnosisContext } from './playbook.js';
import { eventsOf } from './related-objects.js';

/** The Gateway API release each KServe release builds against (its go.mod): the CRDs to install. */
const GATEWAY_API_OF_KSERVE: Record<string, string> = {
  '0.15': 'v1.2.1',
  '0.16': 'v1.2.1',
  '0.17': 'v1.4.0',
  '0.18': 'v1.4.0',
  '0.19': 'v1.4.0',
  '0.20': 'v1.5.0',
};

/** What KServe's ConfigMap ships for each key (config/configmap/inferenceservice.yaml). */
const SHIPPED: Record<string, string> = {
  ingressGateway: 'knative-serving/knative-ingress-gateway',
  ingressService: 'istio-ingressgateway.istio-system.svc.cluster.local',
  kserveIngressGateway: 'kserve/kserve-ingress-gateway',
  ingressDomain: 'example.com',
};

const NO_MATCH = /no matches for kind \\?"(\w+)\\?" in version \\?"([\w.-]+)\/(\w+)\\?"/;
const REQUIRED = /invalid ingress config - ([\w ,]+?) (?:is|are) required/;
const CRD_MISSING = /Gateway API CRD not available|gateway API mode requires gateway\.networking\.k8s\.io\/(\w+)/;

/** The KServe release the controller runs ("0.13"), from its image tag. */
function kserveReleaseOf(pods: V1Pod[]): string | undefined {
  for (const p of pods)
    for (const c of p.spec?.containers ?? []) {
      const m = /kserve-controller:v?(\d+)\.(\d+)/.exec(c.image ?? '');
      if (m) return `${m[1]}.${m[2]}`;
    }
  return undefined;
}

/** The controller's workload as kubectl names it (a Deployment from 0.9, a StatefulSet before). */
function workloadOf(pod: V1Pod | undefined): string {
  const owner = pod?.metadata?.ownerReferences?.find((o) => o.controller) ?? pod?.metadata?.ownerReferences?.[0];
  if (owner?.kind === 'StatefulSet') return `statefulset/${owner.name}`;
  if (owner?.kind === 'ReplicaSet') return `deployment/${owner.name.replace(/-[a-z0-9]{6,10}$/, '')}`;
  return 'deployment/kserve-controller-manager';
}

interface Said {
  ref: string;
  container?: string;
  line: string;
}

/** A controller that cannot start for a missing API says so about no service: its own lines on it. */
async function startupLines(ctx: DiagnosisContext, pods: V1Pod[]): Promise<Said[]> {
  const read = await Promise.all(
    pods.map(async (pod) => {
      const ns = pod.metadata?.namespace ?? '';
      const name = pod.metadata?.name ?? '?';
      const container = controllerContainerOf(pod);
      const text = await ctx.reader.podLog(ns, name, container).catch((error: unknown) => {
        if (error instanceof ForbiddenError) return null;
        throw error;
      });
      return splitLogLines(text ?? '')
        .filter((l) => CRD_MISSING.test(l))
        .map((line) => ({ ref: refOf('Pod', ns, name), container, line }));
    }),
  );
  return read.flat();
}

/** The controller's refusal about this service: its log lines and the service's events, newest last. */
async function controllerSaid(ctx: DiagnosisContext, pods: V1Pod[]): Promise<Said[]> {
  const [lines, events, startup] = await Promise.all([
    controllerLinesAbout(ctx).catch(() => []),
    eventsOf(ctx),
    startupLines(ctx, pods),
  ]);
  return [
    ...startup,
    ...events
      .filter((e) => e.involvedObject?.kind === 'InferenceService' && e.type === 'Warning')
      .map((e) => ({
        ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
        line: `${e.reason ?? 'Warning'}: ${e.message ?? ''}`,
      })),
    ...lines.flatMap((c) => c.lines.map((line) => ({ ref: c.ref, container: c.container, line }))),
  ];
}

/** The first line that says it (since when) and, when it repeats in the same place, the latest. */
function saidEvidence(all: Said[], pattern: RegExp): Evidence[] {
  const first = all.find((s) => pattern.test(s.line));
  if (!first) return [];
  if (!first.container) return [{ kind: 'event', ref: first.ref, text: first.line }];
  const same = all.filter((s) => s.ref === first.ref && pattern.test(s.line));
  const last = same[same.length - 1];
  const lines = last && last !== first && last.line !== first.line ? [first.line, last.line] : [first.line];
  return [
    { kind: 'log', ref: first.ref, container: first.container, excerpt: lines, truncated: same.length > lines.length },
  ];
}

/** The keys the controller requires that the `ingress` key lacks. */
function missingKeys(config: IngressConfig, named: string[]): string[] {
  const enabled = config.values.enableGatewayApi === true;
  const required = new Set([
    ...named,
    'ingressGateway',
    ...(enabled ? ['kserveIngressGateway'] : []),
    ...(ingressValue(config, 'pathTemplate') ? ['ingressDomain'] : []),
  ]);
  return [...required].filter((k) => !ingressValue(config, k));
}

/** The first KServe release whose ConfigMap reads `disableIngressCreation` (config/configmap/inferenceservice.yaml). */
const DISABLE_INGRESS_FROM = [0, 12];

function atLeast(release: string | undefined, [major, minor]: number[]): boolean {
  const [a = 0, b = 0] = (release ?? '').split('.').map(Number);
  return a > (major ?? 0) || (a === major && b >= (minor ?? 0));
}

/**
 * An Ingress at a beta version the cluster no longer serves (Kubernetes 1.22 removed
 * networking.k8s.io/v1beta1 and extensions/v1beta1): what the cluster serves instead (discovery),
 * the controller that writes it (every KServe release with RawDeployment, 0.7 on, writes
 * networking.k8s.io/v1, so a beta Ingress comes from a build against the old API), and the way out
 * that keeps this controller (`disableIngressCreation`, read from KServe 0.12).
 */
function removedIngressNext(
  group: string,
  version: string,
  served: readonly string[],
  release: string | undefined,
  cm: string | undefined,
  restart: string,
): string {
  const servesV1 = served.includes('v1') && group === 'networking.k8s.io';
  const cluster = servesV1
    ? `the cluster serves Ingress only at networking.k8s.io/v1 (Kubernetes 1.22+ removed ${group}/${version})`
    : `the cluster does not serve Ingress at ${group}/${version} (Kubernetes 1.22 removed it; it serves ${group} at ${served.join(', ') || 'no version'})`;
  const controller = `run a KServe controller that writes Ingress at networking.k8s.io/v1: every release with RawDeployment (0.7+) does${release ? `, so this ${release} controller is a build against ${group}/${version}: deploy KServe ${release}'s released controller image or a newer release` : ''}, then ${restart}`;
  const disable =
    cm && (!release || atLeast(release, DISABLE_INGRESS_FROM))
      ? `; or, to route to the service yourself, ${cm}: set "disableIngressCreation": true in the ingress key`
      : cm
        ? `; or upgrade to KServe 0.12+ and set "disableIngressCreation": true in the ingress key of inferenceservice-config to route to the service yourself`
        : '';
  return `${cluster[0]?.toUpperCase()}${cluster.slice(1)}: ${controller}${disable}`;
}

/**
 * The finding when the service has no Ingress / HTTPRoute (or no Deployment, the config refused
 * first) and its cause is readable; [] otherwise (no ingress wanted, or nothing shows why).
 */
export async function rawIngressCause(
  ctx: DiagnosisContext,
  seen: { deploymentMissing: boolean } = { deploymentMissing: true },
): Promise<Finding[]> {
  const [config, pods, groups] = await Promise.all([
    ingressConfigOf(ctx),
    controllerPods(ctx),
    ctx.reader.servedGroups(),
  ]);
  const said = await controllerSaid(ctx, pods);
  if (config?.values.disableIngressCreation === true) return [];
  const release = kserveReleaseOf(pods);
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const cm = config ? `kubectl edit configmap inferenceservice-config -n ${config.namespace}` : undefined;
  const restart = `kubectl rollout restart ${workloadOf(pods[0])} -n ${pods[0]?.metadata?.namespace ?? config?.namespace ?? 'kserve'}`;

  // 1. the ingress config the controller refuses
  const refusal = [...said].reverse().find((s) => REQUIRED.test(s.line));
  const named = refusal ? (REQUIRED.exec(refusal.line)?.[1] ?? '').split(/,\s*|\s+and\s+/).filter(Boolean) : [];
  // KServe validates the ingress key only when it is there, and the refusal stops it before the Deployment
  const keys = config && (refusal || (config.hasKey && seen.deploymentMissing)) ? missingKeys(config, named) : [];
  if (config && keys.length) {
    const values = keys.map((k) => `"${k}": "${SHIPPED[k] ?? '…'}"`).join(', ');
    return [
      finding('RAW_INGRESS_NOT_CREATED', {
        subject,
        title: `The controller refuses the ingress config: the ingress key of ${config.ref} lacks ${keys.join(', ')}${release ? ` (KServe ${release} requires ${keys.length > 1 ? 'them' : 'it'} in every deployment mode)` : ''}`,
        evidence: [
          ...saidEvidence(said, REQUIRED),
          {
            kind: 'field',
            ref: config.ref,
            text: `data.ingress: ${config.hasKey ? `no ${keys.join(', no ')}` : 'no ingress key'} (keys set: ${Object.keys(config.values).join(', ') || 'none'})`,
          },
        ],
        next: `${cm}: add ${values} to the ingress key (KServe's shipped values; a RawDeployment service does not route through them, but the controller refuses the config without them), then ${restart} so it reads the ConfigMap again`,
      }),
    ];
  }

  // 2. the API version the controller writes, against what the cluster serves
  const noMatch = [...said].reverse().find((s) => NO_MATCH.test(s.line));
  const crd = [...said].reverse().find((s) => CRD_MISSING.test(s.line));
  const gatewayApi = config?.values.enableGatewayApi === true || Boolean(crd);
  const m = noMatch ? NO_MATCH.exec(noMatch.line) : null;
  const kind = m?.[1] ?? (gatewayApi ? 'HTTPRoute' : 'Ingress');
  const group = m?.[2] ?? (gatewayApi ? 'gateway.networking.k8s.io' : 'networking.k8s.io');
  const version = m?.[3] ?? (crd ? (CRD_MISSING.exec(crd.line)?.[1] ?? 'v1') : 'v1');
  const served = groups?.versions.get(group) ?? [];
  // the API server's own answer (no matches for kind) is read at the kind's level; without it, the group's versions decide
  if (!noMatch && (!gatewayApi || !groups || served.includes(version))) return [];
  const servedText = noMatch
    ? `has no ${kind} at ${group}/${version}${served.length ? ` (it serves ${group} at ${served.join(', ')}, without ${kind} at ${version})` : ''}`
    : served.length
      ? `serves ${group} only at ${served.join(', ')}`
      : `does not serve ${group} at all`;
  const evidence: Evidence[] = [
    ...(noMatch ? saidEvidence(said, NO_MATCH) : crd ? saidEvidence(said, CRD_MISSING) : []),
    {
      kind: 'field',
      ref: 'API discovery (kubectl api-versions)',
      text: `${group}: ${served.length ? served.join(', ') : 'not served'}; the controller writes ${kind} at ${group}/${version}`,
    },
    ...(config && gatewayApi
      ? [{ kind: 'field' as const, ref: config.ref, text: 'data.ingress: "enableGatewayApi": true' }]
      : []),
  ];
  // where an older Kubernetes serves Ingress instead
  const oldIngress = [
    ...(served.includes('v1beta1') && group === 'networking.k8s.io' ? ['networking.k8s.io/v1beta1'] : []),
    ...(groups?.versions.get('extensions')?.includes('v1beta1') ? ['extensions/v1beta1'] : []),
  ];
  let next: string;
  if (group === 'gateway.networking.k8s.io') {
    const gw = (release && GATEWAY_API_OF_KSERVE[release]) ?? 'v1.2.1';
    next = `Install the Gateway API CRDs (standard channel ${gw}${release ? `, the release KServe ${release} builds against` : ''}): kubectl apply -f https://github.com/kubernetes-sigs/gateway-api/releases/download/${gw}/standard-install.yaml, then ${restart}${cm ? `; or, to keep Ingress objects, ${cm}: set "enableGatewayApi": false in the ingress key` : ''}`;
  } else if (kind === 'Ingress' && version === 'v1') {
    next = `The cluster has no Ingress at networking.k8s.io/v1, which Kubernetes serves from 1.19${oldIngress.length ? ` (it serves Ingress at ${oldIngress.join(', ')})` : ''}: upgrade the cluster to Kubernetes 1.19+, or run a KServe built against ${oldIngress[0] ?? 'an Ingress version the cluster serves'}`;
  } else if (kind === 'Ingress') {
    next = removedIngressNext(group, version, served, release, cm, restart);
  } else {
    next = `The cluster ${servedText}: install the CRDs that serve ${kind} at ${group}/${version}, or upgrade KServe to a release that writes a version the cluster serves, then ${restart}`;
  }
  return [
    finding('RAW_INGRESS_NOT_CREATED', {
      subject,
      title: `The controller cannot create the ${kind} for ${ctx.target.name}: it writes ${group}/${version} and the cluster ${servedText}`,
      evidence,
      next,
    }),
  ];
}
