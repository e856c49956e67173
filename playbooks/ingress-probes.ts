/**
 * IngressNotConfigured: the ingress probes are failing (debug guide: "IngressNotConfigured",
 * "KNative Probes are failing").
 *
 * Knative's networking controller (`networking-istio` in old releases, `net-istio-controller` in
 * new ones) probes every service through the Istio ingress gateway. HTTP 401 or 302 means auth on
 * the gateway (IAP, oauth2: envoy's `UAEX`) blocks the probes; HTTP 403 means Istio RBAC (a
 * ClusterRbacConfig that includes the namespace, or an AuthorizationPolicy). Knative before 0.11.2,
 * and 0.12 to 0.13, have no best-effort probes, so a blocked probe keeps the service unready.
 *
 * RBAC: list pods and get pods/log in knative-serving and istio-system, list clusterrbacconfigs,
 * list authorizationpolicies.
 * Emits: PROBE_BLOCKED_BY_AUTH, PROBE_BLOCKED_BY_RBAC, KNATIVE_PROBES_NOT_BEST_EFFORT.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { knativeServicesOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { conditionOf, deploymentMode, refOf } from '../src/kube/inference-service-view.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';
import { probeAuthManualFix, probeRbacManualFix } from '../src/remediation/manual-fixes.js';

const CONTROLLER_SELECTOR = 'app in (networking-istio,net-istio-controller)';
const GATEWAY_SELECTOR = 'app=istio-ingressgateway';
/** "... want [200], got 403" (prober), or an envoy access line '"GET / HTTP/1.1" 302 UAEX'. */
const PROBE_STATUS = [/\bgot (\d{3})\b/, /response status is (\d{3})\b/, /"\s(\d{3})\s(?:UAEX|-|NR|URX|UAEX,)/, /status(?: code)?[ :=]+(\d{3})\b/i];

export function probeStatusOf(line: string): number | undefined {
  for (const pattern of PROBE_STATUS) {
    const m = pattern.exec(line);
    if (m) return Number(m[1]);
  }
  return undefined;
}

export const ingressProbes: Playbook = {
  id: 'ingress-probes',
  title: 'Ingress gateway probes are failing',
  emits: ['PROBE_BLOCKED_BY_AUTH', 'PROBE_BLOCKED_BY_RBAC', 'KNATIVE_PROBES_NOT_BEST_EFFORT'],
  async run(ctx) {
    if (deploymentMode(ctx.target.isvc) !== 'Serverless') return [];
    const knativeNs = ctx.config.knativeNamespace;
    // the controller pods do not depend on the InferenceService: ask for them at once
    const [services, controllers] = await Promise.all([knativeServicesOf(ctx), optional(ctx.reader.pods(knativeNs, CONTROLLER_SELECTOR), [])]);
    const stuck = services.filter((s) => [conditionOf(s, 'Ready'), conditionOf(s, 'RoutesReady')].some((c) => c?.reason === 'IngressNotConfigured'));
    const ingressStuck = stuck.length > 0 || /IngressNotConfigured/.test(`${conditionOf(ctx.target.isvc, 'IngressReady')?.reason ?? ''}`);
    const hosts = probeHosts(ctx, stuck.length ? stuck : services);
    const probeLines = await linesAbout(ctx, controllers, hosts);
    // envoy's access log on the ingress gateway, when the controller's log does not say (only while stuck)
    const gatewayLines =
      probeLines.some((l) => l.status) || !ingressStuck ? [] : await linesAbout(ctx, await optional(ctx.reader.pods('istio-system', GATEWAY_SELECTOR), []), hosts);
    const lines = [...probeLines, ...gatewayLines].filter((l) => l.status);
    const out: Finding[] = [];
    const version = knativeVersion(controllers);
    const blocked = lines.find((l) => l.status === 401 || l.status === 302) ?? lines.find((l) => l.status === 403);
    if (blocked && (blocked.status === 401 || blocked.status === 302)) {
      out.push(
        finding('PROBE_BLOCKED_BY_AUTH', {
          subject: blocked.ref,
          title: `The ingress probes get HTTP ${blocked.status}: auth on the Istio ingress gateway blocks them`,
          evidence: [logEvidence(lines.filter((l) => l.status === 401 || l.status === 302), blocked), gatewayNote(ctx)],
          remediation: probeAuthManualFix(ctx.target.namespace),
        }),
      );
    } else if (blocked) {
      out.push(
        finding('PROBE_BLOCKED_BY_RBAC', {
          subject: blocked.ref,
          title: `The ingress probes get HTTP 403: Istio RBAC blocks them in namespace ${ctx.target.namespace}`,
          evidence: [logEvidence(lines.filter((l) => l.status === 403), blocked), ...(await rbacEvidence(ctx)), ...(version ? [{ kind: 'field' as const, ref: `Knative Serving ${knativeNs}`, text: `Knative ${version}` }] : [])],
          remediation: probeRbacManualFix(ctx.target.namespace),
        }),
      );
    }
    if (version && lacksBestEffortProbes(version) && (ingressStuck || blocked)) {
      out.push(
        finding('KNATIVE_PROBES_NOT_BEST_EFFORT', {
          subject: `Knative Serving ${knativeNs}`,
          title: `Knative ${version} has no best-effort probes (fixed in 0.11.2 and 0.14.0+): a blocked probe keeps services unready`,
          evidence: [{ kind: 'field', ref: refOf('Pod', knativeNs, controllers[0]?.metadata?.name ?? '?'), text: `serving.knative.dev/release: ${version}` }],
        }),
      );
    }
    return out;
  },
};

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

function probeHosts(ctx: DiagnosisContext, services: Array<{ metadata: { name: string }; status?: { url?: string } }>): string[] {
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
        return [{ ref, container, line: condenseJsonLogLine(line), lineNumber: i + 1, status: status && status !== 200 && status !== 404 ? status : undefined }];
      });
    }),
  );
  return logs.flat();
}

function logEvidence(lines: ProbeLine[], first: ProbeLine): Evidence {
  const same = lines.filter((l) => l.ref === first.ref).slice(-4);
  return { kind: 'log', ref: first.ref, container: first.container, excerpt: same.map((l) => l.line), lineNumbers: same.map((l) => l.lineNumber), truncated: lines.length > same.length };
}

function gatewayNote(ctx: DiagnosisContext): Evidence {
  return {
    kind: 'note',
    ref: `Gateway ${ctx.config.knativeNamespace}/knative-ingress-gateway`,
    text: 'auth (IAP / oauth2 / an Istio authentication policy) on the ingress gateway answers the Knative probes with 401/302; exclude the probe path or upgrade to Knative with best-effort probes',
  };
}

async function rbacEvidence(ctx: DiagnosisContext): Promise<Evidence[]> {
  const [rbacConfigs, policies] = await Promise.all([optional(ctx.reader.clusterRbacConfigs(), []), optional(ctx.reader.authorizationPolicies(ctx.target.namespace), [])]);
  const out: Evidence[] = [];
  for (const c of rbacConfigs) {
    const spec = c.spec ?? {};
    const inclusion = (spec.inclusion as { namespaces?: string[] } | undefined)?.namespaces ?? [];
    const exclusion = (spec.exclusion as { namespaces?: string[] } | undefined)?.namespaces ?? [];
    out.push({
      kind: 'field',
      ref: refOf('ClusterRbacConfig', undefined, c.metadata.name),
      text: `mode: ${String(spec.mode ?? 'unknown')}; inclusion: [${inclusion.join(', ')}]; exclusion: [${exclusion.join(', ')}]${inclusion.includes(ctx.target.namespace) ? ` (includes ${ctx.target.namespace})` : ''}`,
    });
  }
  for (const p of policies) {
    out.push({ kind: 'field', ref: refOf('AuthorizationPolicy', ctx.target.namespace, p.metadata.name), text: `action: ${String(p.spec?.action ?? 'ALLOW')}; ${JSON.stringify(p.spec?.rules ?? []).slice(0, 300)}` });
  }
  if (out.length === 0) out.push({ kind: 'note', ref: `Namespace ${ctx.target.namespace}`, text: 'no ClusterRbacConfig or AuthorizationPolicy visible to the bot' });
  return out;
}

function knativeVersion(pods: V1Pod[]): string | undefined {
  for (const p of pods) {
    const v = p.metadata?.labels?.['serving.knative.dev/release'] ?? p.metadata?.labels?.['app.kubernetes.io/version'];
    if (v) return v.startsWith('v') ? v : `v${v}`;
  }
  return undefined;
}

/** Best-effort probes came with 0.11.2 and 0.14.0; 0.12.x and 0.13.x lack them. */
export function lacksBestEffortProbes(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (major > 0) return false;
  if (minor < 11) return true;
  if (minor === 11) return patch < 2;
  return minor === 12 || minor === 13;
}

/** A Knative JSON log line as "ts level logger: msg" (no stacktrace); other lines unchanged. */
export function condenseJsonLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const o = JSON.parse(line) as Record<string, unknown>;
    const msg = o.msg ?? o.message;
    if (typeof msg !== 'string') return line;
    return [o.ts ?? o.timestamp, o.level ?? o.severity, o.logger ? `${String(o.logger)}:` : undefined, msg].filter((x) => x !== undefined).join(' ');
  } catch {
    return line;
  }
}
