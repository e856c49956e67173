/**
 * IngressNotConfigured: the ingress probes are failing (debug guide: "IngressNotConfigured",
 * "KNative Probes are failing").
 *
 * Knative's networking controller (`networking-istio` in old releases, `net-istio-controller` in
 * new ones) probes every service through the Istio ingress gateway. HTTP 401 or 302 means auth on
 * the gateway (IAP, oauth2: envoy's `UAEX`) blocks the probes; HTTP 403 means Istio RBAC (a
 * ClusterRbacConfig that includes the namespace, or an AuthorizationPolicy). Knative before 0.11.2,
 * and 0.12 to 0.13, have no best-effort probes, so a blocked probe keeps the service unready. When
 * those logs cannot be read or say nothing while the ingress is stuck (on a Knative release that
 * is not known to probe best-effort), the auth objects on the ingress gateway workload or the Istio
 * RBAC in the namespace still explain it: reported as inferred, with the object as evidence. A
 * logged 401/302 names the object that answers it too: while the ingress is stuck on such a release,
 * the external authorizers on the gateway (ext_authz EnvoyFilters, CUSTOM AuthorizationPolicies) are
 * read next to the logs, in the same wave; the JWT origin Policies only for a 401.
 *
 * A route that stays "Waiting for load balancer to be ready" while its revision is ready, with no
 * probe refused, waits for the ingress gateway itself: INGRESS_NOT_CONFIGURED names the gateway
 * Service, its pods and what to do (src/diagnosis/ingress-gateway-readiness.ts).
 *
 * RBAC: list pods and get pods/log in knative-serving and istio-system; list envoyfilters,
 * authorizationpolicies, policies (authentication.istio.io),
 * clusterrbacconfigs, servicerolebindings; get gateways.
 * list services in istio-system; get configmaps/inferenceservice-config (ingress.ingressService).
 * Emits: PROBE_BLOCKED_BY_AUTH, PROBE_BLOCKED_BY_RBAC, KNATIVE_PROBES_NOT_BEST_EFFORT, INGRESS_NOT_CONFIGURED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  knativeReleaseOf,
  knativeVersion,
  lacksBestEffortProbes,
  probeStatusOf,
} from '../src/diagnosis/knative-probes.js';
import { gatewayNotServingRoute } from '../src/diagnosis/ingress-gateway-readiness.js';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { gatewayAuth, ISTIO_NAMESPACE, namespaceRbac } from '../src/diagnosis/probe-blockers.js';
import { knativeServicesOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { conditionOf, deploymentMode, refOf } from '../src/kube/inference-service-view.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';
import { probeAuthManualFix, probeRbacManualFix } from '../src/remediation/manual-fixes.js';

export { lacksBestEffortProbes, probeStatusOf } from '../src/diagnosis/knative-probes.js';

const CONTROLLER_SELECTOR = 'app in (networking-istio,net-istio-controller)';
const GATEWAY_SELECTOR = 'app=istio-ingressgateway';

export const ingressProbes: Playbook = {
  id: 'ingress-probes',
  title: 'Ingress gateway probes are failing',
  emits: ['PROBE_BLOCKED_BY_AUTH', 'PROBE_BLOCKED_BY_RBAC', 'KNATIVE_PROBES_NOT_BEST_EFFORT', 'INGRESS_NOT_CONFIGURED'],
  async run(ctx) {
    if (deploymentMode(ctx.target.isvc) !== 'Serverless') return [];
    const knativeNs = ctx.config.knativeNamespace;
    // a service the controller never reconciled has no route to probe: nothing to ask the networking layer
    if (!ctx.target.isvc.status?.conditions?.length) return [];
    const [services, controllers, gateway] = await Promise.all([
      knativeServicesOf(ctx),
      optional(ctx.reader.pods(knativeNs, CONTROLLER_SELECTOR), []),
      ctx.reader.readKind('IstioGateway', knativeNs, 'knative-ingress-gateway'),
    ]);
    if (services.length === 0) return [];
    const stuck = services.filter((s) =>
      [conditionOf(s, 'Ready'), conditionOf(s, 'RoutesReady')].some((c) => c?.reason === 'IngressNotConfigured'),
    );
    const ingressStuck =
      stuck.length > 0 || /IngressNotConfigured/.test(`${conditionOf(ctx.target.isvc, 'IngressReady')?.reason ?? ''}`);
    const hosts = probeHosts(ctx, stuck.length ? stuck : services);
    const selector = (gateway?.spec?.selector as Record<string, string> | undefined) ?? { istio: 'ingressgateway' };
    const release = knativeVersion(controllers) ?? knativeReleaseOf(gateway?.metadata.labels);
    // stuck on a release whose probes are not best-effort: a refused probe is the likely cause, so the
    // external authorizer on the gateway (what answers a redirect) is read next to the logs, one wave
    const likelyRefused = ingressStuck && !(release && !lacksBestEffortProbes(release));
    const extAuthz = likelyRefused ? gatewayAuth(ctx, selector, { jwt: false }) : undefined;
    extAuthz?.catch(() => undefined);
    const probeLines = await linesAbout(ctx, controllers, hosts);
    // envoy's access log on the ingress gateway, when the controller's log does not say (only while stuck)
    const gatewayLines =
      probeLines.some((l) => l.status) || !ingressStuck
        ? []
        : await linesAbout(ctx, await optional(ctx.reader.pods(ISTIO_NAMESPACE, GATEWAY_SELECTOR), []), hosts);
    const lines = [...probeLines, ...gatewayLines].filter((l) => l.status);
    const version = release;
    const blocked = lines.find((l) => l.status === 401 || l.status === 302) ?? lines.find((l) => l.status === 403);
    const out = await blockedFindings(ctx, lines, blocked, version, selector);
    if (!blocked && likelyRefused) out.push(...(await inferredBlocker(ctx, selector, version)));
    if (version && lacksBestEffortProbes(version) && (ingressStuck || blocked))
      out.push(notBestEffort(ctx, version, controllers));
    // no probe refused: a route still waiting for its load balancer while the revision is ready waits for the gateway
    if (!out.some((f) => f.code === 'PROBE_BLOCKED_BY_AUTH' || f.code === 'PROBE_BLOCKED_BY_RBAC'))
      out.push(...(await gatewayNotServingRoute(ctx, services, gateway)));
    return out;
  },
  firstWave: (reader, _target, config) => [
    reader.pods(config.knativeNamespace, CONTROLLER_SELECTOR),
    reader.readKind('IstioGateway', config.knativeNamespace, 'knative-ingress-gateway'),
  ],
};

/** The probe status codes the logs show: 401/302 is auth on the gateway, 403 Istio RBAC. */
async function blockedFindings(
  ctx: DiagnosisContext,
  lines: ProbeLine[],
  blocked: ProbeLine | undefined,
  version: string | undefined,
  selector: Record<string, string>,
): Promise<Finding[]> {
  if (!blocked) return [];
  if (blocked.status === 401 || blocked.status === 302) {
    // the object on the gateway that answers them: an external authorizer redirects (302); a 401 may be a JWT Policy too
    const auth = (await gatewayAuth(ctx, selector, { jwt: blocked.status === 401 })).filter((b) => b.kind === 'auth');
    return [
      finding('PROBE_BLOCKED_BY_AUTH', {
        subject: blocked.ref,
        title: `The ingress probes get HTTP ${blocked.status}: auth on the Istio ingress gateway${auth.length ? ` (${auth.map((b) => b.what).join(', ')})` : ''} blocks them`,
        evidence: [
          logEvidence(
            lines.filter((l) => l.status === 401 || l.status === 302),
            blocked,
          ),
          ...(auth.length ? auth.map((b) => b.evidence) : [gatewayNote(ctx)]),
        ],
        remediation: probeAuthManualFix(ctx.target.namespace),
      }),
    ];
  }
  const release = version
    ? [{ kind: 'field' as const, ref: `Knative Serving ${ctx.config.knativeNamespace}`, text: `Knative ${version}` }]
    : [];
  return [
    finding('PROBE_BLOCKED_BY_RBAC', {
      subject: blocked.ref,
      title: `The ingress probes get HTTP 403: Istio RBAC blocks them in namespace ${ctx.target.namespace}`,
      evidence: [
        logEvidence(
          lines.filter((l) => l.status === 403),
          blocked,
        ),
        ...(await rbacEvidence(ctx)),
        ...release,
      ],
      remediation: probeRbacManualFix(ctx.target.namespace),
    }),
  ];
}

function notBestEffort(ctx: DiagnosisContext, version: string, controllers: V1Pod[]): Finding {
  const knativeNs = ctx.config.knativeNamespace;
  const ref = controllers[0]
    ? refOf('Pod', knativeNs, controllers[0].metadata?.name ?? '?')
    : refOf('Gateway', knativeNs, 'knative-ingress-gateway');
  return finding('KNATIVE_PROBES_NOT_BEST_EFFORT', {
    subject: `Knative Serving ${knativeNs}`,
    title: `Knative ${version} has no best-effort probes (fixed in 0.11.2 and 0.14.0+): a blocked probe keeps services unready`,
    evidence: [{ kind: 'field', ref, text: `serving.knative.dev/release: ${version}` }],
  });
}

interface ProbeLine {
  ref: string;
  container: string;
  line: string;
  lineNumber: number;
  status?: number;
}

async function optional<T>(p: Promise<T>, fallback: T): Promise<T> {
  try {
    return await p;
  } catch (error) {
    if (error instanceof ForbiddenError) return fallback;
    throw error;
  }
}

function probeHosts(
  ctx: DiagnosisContext,
  services: Array<{ metadata: { name: string }; status?: { url?: string } }>,
): string[] {
  const hosts = new Set<string>([`${ctx.target.name}.${ctx.target.namespace}`]);
  for (const s of services) {
    hosts.add(`${s.metadata.name}.${ctx.target.namespace}`);
    if (s.status?.url) hosts.add(s.status.url.replace(/^https?:\/\//, ''));
  }
  const url = ctx.target.isvc.status?.url;
  if (url) hosts.add(url.replace(/^https?:\/\//, ''));
  return [...hosts];
}

async function linesAbout(ctx: DiagnosisContext, pods: V1Pod[], hosts: string[]): Promise<ProbeLine[]> {
  const running = pods.filter((p) => p.status?.phase !== 'Failed').slice(0, 2);
  const logs = await Promise.all(
    running.map(async (pod) => {
      const container = pod.spec?.containers?.[0]?.name ?? 'controller';
      const ns = pod.metadata?.namespace ?? ctx.config.knativeNamespace;
      const log = await readContainerLog(ctx, ns, pod.metadata?.name ?? '?', container, { fallbackToErrors: false });
      const ref = refOf('Pod', ns, pod.metadata?.name ?? '?');
      return splitLogLines(log.text ?? '').flatMap((line, i) => {
        if (!hosts.some((h) => line.includes(h))) return [];
        const status = probeStatusOf(line);
        return [
          {
            ref,
            container,
            line,
            lineNumber: i + 1,
            status: status && status !== 200 && status !== 404 ? status : undefined,
          },
        ];
      });
    }),
  );
  return logs.flat();
}

function logEvidence(lines: ProbeLine[], first: ProbeLine): Evidence {
  // the first failed probe (since when) and the latest ones (still failing)
  const all = lines.filter((l) => l.ref === first.ref);
  const same = all.length > 4 ? [...all.slice(0, 1), ...all.slice(-3)] : all;
  return {
    kind: 'log',
    ref: first.ref,
    container: first.container,
    excerpt: same.map((l) => l.line),
    lineNumbers: same.map((l) => l.lineNumber),
    truncated: lines.length > same.length,
  };
}

function gatewayNote(ctx: DiagnosisContext): Evidence {
  return {
    kind: 'note',
    ref: `Gateway ${ctx.config.knativeNamespace}/knative-ingress-gateway`,
    text: 'auth (IAP / oauth2 / an Istio authentication policy) on the ingress gateway answers the Knative probes with 401/302; exclude the probe path or upgrade to Knative with best-effort probes',
  };
}

async function rbacEvidence(ctx: DiagnosisContext): Promise<Evidence[]> {
  const blockers = await namespaceRbac(ctx);
  return blockers.length
    ? blockers.map((b) => b.evidence)
    : [
        {
          kind: 'note',
          ref: `Namespace ${ctx.target.namespace}`,
          text: 'no ClusterRbacConfig or AuthorizationPolicy visible to the bot',
        },
      ];
}

/**
 * No probe status in any log the bot could read while the ingress is stuck: auth on the gateway
 * workload (401/302) or Istio RBAC in the namespace (403) still explains it, inferred.
 */
async function inferredBlocker(
  ctx: DiagnosisContext,
  selector: Record<string, string>,
  version: string | undefined,
): Promise<Finding[]> {
  const onGateway = await gatewayAuth(ctx, selector);
  const auth = onGateway.filter((b) => b.kind === 'auth');
  const rbac = auth.length ? [] : [...onGateway, ...(await namespaceRbac(ctx))];
  const found = auth.length ? auth : rbac;
  if (found.length === 0) return [];
  const why: Evidence = {
    kind: 'note',
    ref: `Knative Serving ${ctx.config.knativeNamespace}`,
    text: `inferred: no probe status code could be read from the networking controller's or the gateway's logs while the ingress is stuck${version ? ` on Knative ${version}, whose probes are not best-effort` : ''}`,
  };
  const what = found.map((b) => b.what).join(', ');
  const evidence = [...found.map((b) => b.evidence), why];
  return auth.length
    ? [
        finding('PROBE_BLOCKED_BY_AUTH', {
          subject: refOf('Gateway', ctx.config.knativeNamespace, 'knative-ingress-gateway'),
          title: `Probably auth on the Istio ingress gateway (${what}) answers the Knative probes with 401/302 (inferred)`,
          evidence,
          remediation: probeAuthManualFix(ctx.target.namespace),
        }),
      ]
    : [
        finding('PROBE_BLOCKED_BY_RBAC', {
          subject: refOf('Namespace', undefined, ctx.target.namespace),
          title: `Probably Istio RBAC (${what}) answers the Knative probes with 403 in namespace ${ctx.target.namespace} (inferred)`,
          evidence,
          remediation: probeRbacManualFix(ctx.target.namespace),
        }),
      ];
}
