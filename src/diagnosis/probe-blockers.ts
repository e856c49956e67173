/**
 * What would answer Knative's ingress probes with 401/302 or 403 when the networking controller's
 * and the gateway's logs cannot be read or say nothing (the seed guide: "if you have auth on the
 * ingress gateway, probes get 401/302"): auth on the gateway workload that serves the route (an
 * ext_authz EnvoyFilter, an AuthorizationPolicy with action CUSTOM, a JWT origin Policy: 401/302;
 * an AuthorizationPolicy on the gateway that requires a JWT principal: 403), or Istio RBAC in the service's namespace (a
 * ClusterRbacConfig that covers it with ServiceRoleBindings, ALLOW AuthorizationPolicies). Each
 * object is shown as YAML: its identity and the fields that decide (objectEvidence).
 */
import { unlessForbidden } from './unless-forbidden.js';
import { Document, isCollection, isPair, type YAMLMap } from 'yaml';
import { refOf } from '../kube/inference-service-view.js';
import { matchesLabelSelector } from '../kube/label-selector.js';
import type { KubeObject } from '../kube/schemas.js';
import type { DiagnosisContext } from './playbook.js';
import type { Evidence } from '../findings/types.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

export const ISTIO_NAMESPACE = 'istio-system';

export interface ProbeBlocker {
  kind: 'auth' | 'rbac';
  /** What the object does to a probe, in a few words. */
  what: string;
  evidence: Evidence;
}

/** The scalar leaves of an object as "path: value" lines (relevant keys first). */
export function flatten(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => flatten(v, `${prefix}[${i}]`));
  if (isObj(value)) return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  return value === undefined || value === null ? [] : [`${prefix}: ${String(value)}`];
}

const RELEVANT =
  /filterName|ext_authz|workload|selector|action|provider|issuer|jwt|principal|excluded|targets|subjects|properties|mode|inclusion|exclusion|from|paths|methods|when/i;

/** The parts of `value` whose leaf paths `keep` accepts (arrays and maps left empty dropped), else undefined. */
function pick(value: unknown, keep: (path: string) => boolean, prefix = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v, i) => pick(v, keep, `${prefix}[${i}]`)).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (isObj(value)) {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, pick(v, keep, prefix ? `${prefix}.${k}` : k)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value === undefined || value === null || !keep(prefix) ? undefined : value;
}

/** A collection short enough for one line is written on one (`values: [user@example.com]`), inner ones first. */
function compact(node: unknown): void {
  if (!isCollection(node)) return;
  for (const item of node.items) compact(isPair(item) ? item.value : item);
  if (JSON.stringify(node.toJSON()).length <= COMPACT) node.flow = true;
}
const COMPACT = 64;

/**
 * The object as YAML: its kind, name and namespace, and the fields of its spec that decide what it
 * does to a probe (RELEVANT; the first fields when none is), at most `max` lines.
 */
export function objectEvidence(kind: string, o: KubeObject, max = 16): Evidence {
  const spec = o.spec ?? {};
  const paths = flatten(spec).map((l) => l.slice(0, l.indexOf(': ')));
  const deciding = paths.filter((p) => RELEVANT.test(p));
  const shown = new Set(deciding.length > 0 ? deciding : paths.slice(0, 6));
  const doc = new Document({
    kind,
    metadata: { name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) },
    spec: pick(spec, (p) => shown.has(p)) ?? {},
  });
  (doc.get('metadata', true) as YAMLMap).flow = true;
  compact(doc.contents);
  const lines = doc.toString({ lineWidth: 0, flowCollectionPadding: false, indentSeq: false }).trimEnd().split('\n');
  return {
    kind: 'field',
    ref: refOf(kind, o.metadata.namespace, o.metadata.name),
    excerpt: lines.slice(0, max),
    format: 'yaml',
    truncated: lines.length > max || shown.size < paths.length,
  };
}

/** Whether an Istio object's workload selector (selector.matchLabels / workloadSelector.labels / workloadLabels / targets) covers the gateway. */
function coversGateway(o: KubeObject, gatewayLabels: Record<string, string>): boolean {
  const spec = o.spec ?? {};
  const labels =
    (isObj(spec.workloadSelector) && isObj(spec.workloadSelector.labels) ? spec.workloadSelector.labels : undefined) ??
    (isObj(spec.workloadLabels) ? spec.workloadLabels : undefined);
  if (labels) return Object.entries(labels).every(([k, v]) => gatewayLabels[k] === v);
  if (isObj(spec.selector)) return matchesLabelSelector(spec.selector as never, gatewayLabels);
  if (Array.isArray(spec.targets))
    return (spec.targets as unknown[]).some((t) => isObj(t) && /ingressgateway/.test(String(t.name ?? '')));
  return true;
}

/**
 * Auth on the ingress gateway workload (selector labels of the Knative ingress Gateway). `jwt: false`
 * leaves out the JWT origin Policies (they answer 401, never a redirect): what a 302 needs is the
 * external authorizer (an ext_authz EnvoyFilter, a CUSTOM AuthorizationPolicy).
 */
export async function gatewayAuth(
  ctx: DiagnosisContext,
  gatewayLabels: Record<string, string>,
  { jwt = true }: { jwt?: boolean } = {},
): Promise<ProbeBlocker[]> {
  const [filters, policies, originPolicies] = await Promise.all([
    unlessForbidden(ctx.reader.listKind('EnvoyFilter', ISTIO_NAMESPACE), []),
    unlessForbidden(ctx.reader.listKind('AuthorizationPolicy', ISTIO_NAMESPACE), []),
    jwt ? unlessForbidden(ctx.reader.listKind('IstioAuthenticationPolicy', ISTIO_NAMESPACE), []) : [],
  ]);
  const out: ProbeBlocker[] = [];
  for (const f of filters.filter(
    (f) => coversGateway(f, gatewayLabels) && /ext_authz/.test(JSON.stringify(f.spec ?? {})),
  )) {
    out.push({
      kind: 'auth',
      what: `the ext_authz EnvoyFilter ${f.metadata.name}`,
      evidence: objectEvidence('EnvoyFilter', f),
    });
  }
  for (const p of policies.filter((p) => p.spec?.action === 'CUSTOM' && coversGateway(p, gatewayLabels))) {
    out.push({
      kind: 'auth',
      what: `the CUSTOM (external auth) AuthorizationPolicy ${p.metadata.name}`,
      evidence: objectEvidence('AuthorizationPolicy', p),
    });
  }
  for (const p of originPolicies.filter((p) => Array.isArray(p.spec?.origins) && coversGateway(p, gatewayLabels))) {
    out.push({
      kind: 'auth',
      what: `the JWT origin authentication Policy ${p.metadata.name}`,
      evidence: objectEvidence('Policy', p),
    });
  }
  // a RequestAuthentication only rejects invalid JWTs; a policy that requires a principal answers a probe without one with 403
  for (const p of policies.filter(
    (p) =>
      p.spec?.action !== 'CUSTOM' &&
      coversGateway(p, gatewayLabels) &&
      /requestPrincipals/.test(JSON.stringify(p.spec ?? {})),
  )) {
    out.push({
      kind: 'rbac',
      what: `the AuthorizationPolicy ${p.metadata.name} that requires a JWT on the gateway`,
      evidence: objectEvidence('AuthorizationPolicy', p),
    });
  }
  return out;
}

/** Istio RBAC that applies to the service's namespace. */
export async function namespaceRbac(ctx: DiagnosisContext): Promise<ProbeBlocker[]> {
  const ns = ctx.target.namespace;
  const [rbacConfigs, bindings, policies] = await Promise.all([
    unlessForbidden(ctx.reader.listKind('ClusterRbacConfig', undefined), []),
    unlessForbidden(ctx.reader.listKind('ServiceRoleBinding', ns), []),
    unlessForbidden(ctx.reader.listKind('AuthorizationPolicy', ns), []),
  ]);
  const out: ProbeBlocker[] = [];
  const enforced = rbacConfigs.find((c) => rbacCovers(c, ns));
  if (enforced) {
    out.push({
      kind: 'rbac',
      what: `Istio RBAC (ClusterRbacConfig ${enforced.metadata.name}) in namespace ${ns}`,
      evidence: objectEvidence('ClusterRbacConfig', enforced),
    });
    for (const b of bindings.slice(0, 3))
      out.push({
        kind: 'rbac',
        what: `the ServiceRoleBinding ${b.metadata.name}`,
        evidence: objectEvidence('ServiceRoleBinding', b),
      });
  }
  for (const p of policies
    .filter((p) => (p.spec?.action ?? 'ALLOW') === 'ALLOW' || p.spec?.action === 'DENY')
    .slice(0, 3)) {
    out.push({
      kind: 'rbac',
      what: `the AuthorizationPolicy ${p.metadata.name}`,
      evidence: objectEvidence('AuthorizationPolicy', p),
    });
  }
  return out;
}

function rbacCovers(c: KubeObject, ns: string): boolean {
  const spec = c.spec ?? {};
  const list = (key: string) =>
    isObj(spec[key]) && Array.isArray((spec[key] as Obj).namespaces) ? ((spec[key] as Obj).namespaces as string[]) : [];
  if (spec.mode === 'ON') return true;
  if (spec.mode === 'ON_WITH_INCLUSION') return list('inclusion').includes(ns);
  if (spec.mode === 'ON_WITH_EXCLUSION') return !list('exclusion').includes(ns);
  return false;
}
