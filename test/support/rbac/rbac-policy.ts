/**
 * A small Kubernetes RBAC evaluator (the authorizer's rules, without aggregation or the defaults
 * the API server adds): Roles, ClusterRoles and their bindings, as rendered from deploy/, decide
 * whether a subject may make a resource request, and which rule atoms (verb × group × resource ×
 * resourceName) a set of requests leaves unused. test/integration/rbac.test.ts uses it to keep the
 * shipped RBAC equal to what the code does.
 *
 * Semantics followed: a ClusterRoleBinding grants its ClusterRole everywhere (cluster-scoped and
 * every namespace); a RoleBinding grants its Role, or a ClusterRole's rules, in its own namespace
 * only; "*" matches any verb, group or resource; "pods/*" any subresource of pods, "*\/log" that
 * subresource of any resource; a rule with resourceNames allows only requests naming one of them
 * (so never create, list, watch or deletecollection).
 */

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleObject {
  kind: 'Role' | 'ClusterRole';
  name: string;
  namespace?: string;
  rules: PolicyRule[];
}

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

export interface BindingObject {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  roleRef: { kind: 'Role' | 'ClusterRole'; name: string };
  subjects: Subject[];
  /** Set on the copies withBindingsCopiedTo makes: the original's namespace (they count as one binding). */
  copiedFrom?: string;
}

export interface RbacPolicy {
  roles: RoleObject[];
  bindings: BindingObject[];
}

/** What an API request asks, as the authorizer sees it. `resource` may carry a subresource: "pods/log". */
export interface ResourceRequest {
  verb: string;
  group: string;
  resource: string;
  /** Absent: a cluster-scoped request (or a list/watch across all namespaces). */
  namespace?: string;
  name?: string;
}

/** One rule of one role, reached through one binding. */
export interface Grant {
  binding: BindingObject;
  role: RoleObject;
  ruleIndex: number;
  rule: PolicyRule;
}

/** The smallest thing a rule allows: one verb on one resource of one group (and one name, when restricted). */
export interface RuleAtom {
  /** "ClusterRole isvc-doctor-diagnosis #0" or "Role knative-serving/x #1". */
  rule: string;
  /** "RoleBinding default/x" or "ClusterRoleBinding x". */
  binding: string;
  verb: string;
  group: string;
  resource: string;
  resourceName?: string;
}

type Obj = {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; labels?: unknown };
  rules?: unknown;
  roleRef?: unknown;
  subjects?: unknown;
};

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

/** The Roles, ClusterRoles and bindings among rendered manifests (other kinds are ignored). */
export function policyFromObjects(objects: unknown[]): RbacPolicy {
  const roles: RoleObject[] = [];
  const bindings: BindingObject[] = [];
  for (const raw of objects) {
    const o = (raw ?? {}) as Obj;
    if (typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('rbac.authorization.k8s.io/')) continue;
    const name = String(o.metadata?.name ?? '');
    const namespace = typeof o.metadata?.namespace === 'string' ? o.metadata.namespace : undefined;
    if (o.kind === 'Role' || o.kind === 'ClusterRole') {
      const rules = ((o.rules as unknown[] | undefined) ?? []).map((r) => {
        const rule = r as Record<string, unknown>;
        const out: PolicyRule = { verbs: strings(rule.verbs) ?? [] };
        for (const key of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) {
          const v = strings(rule[key]);
          if (v) out[key] = v;
        }
        return out;
      });
      roles.push({ kind: o.kind, name, ...(o.kind === 'Role' && namespace ? { namespace } : {}), rules });
    } else if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
      const ref = (o.roleRef ?? {}) as { kind?: unknown; name?: unknown };
      const labels = (o.metadata?.labels && typeof o.metadata.labels === 'object' ? o.metadata.labels : {}) as Record<
        string,
        string
      >;
      bindings.push({
        kind: o.kind,
        name,
        ...(o.kind === 'RoleBinding' && namespace ? { namespace } : {}),
        labels,
        roleRef: { kind: ref.kind === 'Role' ? 'Role' : 'ClusterRole', name: String(ref.name ?? '') },
        subjects: ((o.subjects as unknown[] | undefined) ?? []).map((s) => {
          const subject = s as Record<string, unknown>;
          return {
            kind: String(subject.kind ?? ''),
            name: String(subject.name ?? ''),
            ...(typeof subject.namespace === 'string' ? { namespace: subject.namespace } : {}),
          };
        }),
      });
    }
  }
  return { roles, bindings };
}

/** Whether a binding subject names this service account (directly or through its groups). */
export function subjectMatches(s: Subject, sa: { name: string; namespace: string }): boolean {
  if (s.kind === 'ServiceAccount') return s.name === sa.name && (s.namespace ?? '') === sa.namespace;
  if (s.kind === 'Group')
    return (
      s.name === 'system:serviceaccounts' ||
      s.name === `system:serviceaccounts:${sa.namespace}` ||
      s.name === 'system:authenticated'
    );
  if (s.kind === 'User') return s.name === `system:serviceaccount:${sa.namespace}:${sa.name}`;
  return false;
}

function roleOf(policy: RbacPolicy, b: BindingObject): RoleObject | undefined {
  return policy.roles.find(
    (r) =>
      r.kind === b.roleRef.kind &&
      r.name === b.roleRef.name &&
      (r.kind === 'ClusterRole' || r.namespace === b.namespace),
  );
}

/** Every rule that reaches the service account, with the binding that grants it. */
export function grantsFor(policy: RbacPolicy, sa: { name: string; namespace: string }): Grant[] {
  const out: Grant[] = [];
  for (const binding of policy.bindings) {
    if (!binding.subjects.some((s) => subjectMatches(s, sa))) continue;
    const role = roleOf(policy, binding);
    if (!role) continue;
    for (const [ruleIndex, rule] of role.rules.entries()) out.push({ binding, role, ruleIndex, rule });
  }
  return out;
}

function listed(values: string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

function resourceListed(resources: string[] | undefined, resource: string): boolean {
  const [base, sub] = resource.split('/', 2);
  return (resources ?? []).some((r) => {
    if (r === '*' || r === resource) return true;
    if (sub !== undefined && r === `${base}/*`) return true;
    if (sub !== undefined && r === `*/${sub}`) return true;
    return false;
  });
}

/** Whether a rule, ignoring scope, covers a request. */
export function ruleAllows(rule: PolicyRule, req: ResourceRequest): boolean {
  if (
    !listed(rule.verbs, req.verb) ||
    !listed(rule.apiGroups, req.group) ||
    !resourceListed(rule.resources, req.resource)
  )
    return false;
  if (rule.resourceNames && rule.resourceNames.length > 0)
    return req.name !== undefined && rule.resourceNames.includes(req.name);
  return true;
}

/** Whether a binding's scope covers a request: everywhere for a ClusterRoleBinding, its namespace for a RoleBinding. */
export function bindingCovers(binding: BindingObject, req: ResourceRequest): boolean {
  return binding.kind === 'ClusterRoleBinding' || (req.namespace !== undefined && req.namespace === binding.namespace);
}

/** The first grant that allows the request, or null (denied). */
export function authorize(
  policy: RbacPolicy,
  sa: { name: string; namespace: string },
  req: ResourceRequest,
): Grant | null {
  return grantsFor(policy, sa).find((g) => bindingCovers(g.binding, req) && ruleAllows(g.rule, req)) ?? null;
}

export function describeRule(g: Pick<Grant, 'role' | 'ruleIndex'>): string {
  return `${g.role.kind} ${g.role.namespace ? `${g.role.namespace}/` : ''}${g.role.name} #${g.ruleIndex}`;
}

export function describeBinding(b: BindingObject): string {
  const ns = b.copiedFrom ?? b.namespace;
  return `${b.kind} ${ns ? `${ns}/` : ''}${b.name}${b.copiedFrom !== undefined ? ' (and its copies)' : ''}`;
}

/** The atoms of every rule that reaches the service account (one per binding that grants it). */
export function ruleAtoms(
  policy: RbacPolicy,
  sa: { name: string; namespace: string },
): Array<RuleAtom & { grant: Grant }> {
  const out: Array<RuleAtom & { grant: Grant }> = [];
  for (const grant of grantsFor(policy, sa)) {
    const r = grant.rule;
    const names: Array<string | undefined> =
      r.resourceNames && r.resourceNames.length > 0 ? r.resourceNames : [undefined];
    for (const verb of r.verbs)
      for (const group of r.apiGroups ?? [])
        for (const resource of r.resources ?? [])
          for (const resourceName of names)
            out.push({
              rule: describeRule(grant),
              binding: describeBinding(grant.binding),
              verb,
              group,
              resource,
              ...(resourceName !== undefined ? { resourceName } : {}),
              grant,
            });
  }
  return out;
}

/** Whether a request exercises an atom through its binding (wildcards in the atom match anything). */
export function atomUsedBy(atom: RuleAtom & { grant: Grant }, req: ResourceRequest): boolean {
  if (!bindingCovers(atom.grant.binding, req)) return false;
  const one: PolicyRule = {
    verbs: [atom.verb],
    apiGroups: [atom.group],
    resources: [atom.resource],
    ...(atom.resourceName !== undefined ? { resourceNames: [atom.resourceName] } : {}),
  };
  return ruleAllows(one, req);
}

/**
 * The atoms no request uses (what the roles grant beyond what the code does). A binding and its
 * copies count as one: an atom is used when a request uses it through any of them.
 */
export function unusedAtoms(
  policy: RbacPolicy,
  sa: { name: string; namespace: string },
  requests: ResourceRequest[],
): RuleAtom[] {
  const byKey = new Map<string, { atom: RuleAtom; used: boolean }>();
  for (const { grant, ...atom } of ruleAtoms(policy, sa)) {
    const key = JSON.stringify(atom);
    const entry = byKey.get(key) ?? { atom, used: false };
    entry.used ||= requests.some((req) => atomUsedBy({ ...atom, grant }, req));
    byKey.set(key, entry);
  }
  return [...byKey.values()].filter((e) => !e.used).map((e) => e.atom);
}

/** The same policy with the labelled RoleBindings copied into more namespaces (what the docs tell operators to do). */
export function withBindingsCopiedTo(policy: RbacPolicy, label: string, namespaces: string[]): RbacPolicy {
  const extra: BindingObject[] = [];
  for (const b of policy.bindings) {
    if (b.kind !== 'RoleBinding' || b.roleRef.kind !== 'ClusterRole' || b.labels[label] !== 'true') continue;
    for (const ns of namespaces) {
      if (
        ns !== b.namespace &&
        !policy.bindings.some((o) => o.kind === 'RoleBinding' && o.name === b.name && o.namespace === ns)
      )
        extra.push({ ...b, namespace: ns, copiedFrom: b.namespace ?? '' });
    }
  }
  const originals = policy.bindings.map((b) =>
    extra.some((e) => e.name === b.name && e.copiedFrom === b.namespace) ? { ...b, copiedFrom: b.namespace ?? '' } : b,
  );
  return { roles: policy.roles, bindings: [...originals, ...extra] };
}
