/**
 * The KServe / KFServing controller's recent log lines about one InferenceService. The controller
 * runs in `kserve`, `kfserving-system` or `kubeflow` depending on the install, so its pods are
 * found by label in every namespace; its log is read bounded (tailLines / limitBytes). Lines are
 * read as structured fields (zap JSON, or klog's key="value" pairs). A line is about the service
 * when it carries its UID; when a field holds its name with its namespace (`"InferenceService":
 * {"name","namespace"}`, controller-runtime's `name` / `namespace` / `request`, KServe's `isvc` /
 * `Name`; without a namespace only while no line puts that name in another namespace); or, when it
 * names no other service and no other namespace, when it names `NS/NAME`, a runtime the service uses,
 * or an object it owns (on a line without a namespace, only while no line puts its name in another
 * namespace), as a whole name. A name inside another name never counts (`iris` is not
 * `sklearn-iris-2`), and a line of another kind's reconciler (`controllerKind`: an
 * LLMInferenceService's for an InferenceService, and the reverse) is never about it. A line also
 * counts when it carries the same error as one of the next two that are about the service (KFServing
 * logs "Failed to reconcile" without the name, then "Reconciler error" with it).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { ForbiddenError } from '../kube/errors.js';
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import { splitLogLines } from '../logs/log-excerpt.js';
import type { DiagnosisContext } from './playbook.js';

export const CONTROLLER_SELECTOR = 'control-plane in (kserve-controller-manager,kfserving-controller-manager)';

export interface ControllerLines {
  pod: V1Pod;
  ref: string;
  container: string;
  lines: string[];
  /** 1-based line numbers of `lines` in the log read. */
  lineNumbers: number[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Fields = Record<string, unknown>;
const isObj = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** What identifies the service in the controller's log besides its namespace and name. */
export interface ServiceIdentity {
  namespace: string;
  name: string;
  /** The kind the controller reconciles it as (InferenceService unless told). */
  kind?: 'InferenceService' | 'LLMInferenceService';
  uid?: string;
  /** Names of objects it owns, read from their ownerReferences (the naming KServe uses is known without them). */
  owned?: readonly string[];
  /** The serving runtimes its components name. */
  runtimes?: readonly string[];
}

/** A structured line's fields: a zap JSON object, or the key="value" pairs of a klog / logfmt line. */
function fieldsOf(line: string): Fields {
  const brace = line.indexOf('{');
  if (brace >= 0 && line.trimEnd().endsWith('}')) {
    try {
      const parsed: unknown = JSON.parse(line.slice(brace));
      if (isObj(parsed)) return parsed;
    } catch {
      // not JSON: read it as key=value pairs
    }
  }
  const out: Fields = {};
  for (const m of line.matchAll(/(?:^|\s)([A-Za-z][\w.]*)=("(?:[^"\\]|\\.)*"|[^\s"]+)/g)) {
    const [, key = '', value = ''] = m;
    out[key] = value.startsWith('"') ? value.slice(1, -1).replace(/\\"/g, '"') : value;
  }
  return out;
}

interface Named {
  name: string;
  namespace?: string;
}

/** "ns/name" or "name" (in the line's namespace). */
const named = (value: string, namespace: string | undefined): Named => {
  const slash = value.indexOf('/');
  return slash > 0 ? { namespace: value.slice(0, slash), name: value.slice(slash + 1) } : { name: value, namespace };
};

/** Keys whose value is the service (KServe's own log calls, and controller-runtime's object key: the kind). */
const serviceKeys = (kind: string) => [kind, kind.toLowerCase(), 'inferenceService', 'isvc', 'llmisvc', 'Name'];
const KIND_KEYS = ['controllerKind', 'reconciler kind', 'reconcilerKind'];

/** The kinds a line's reconciler says it reconciles (`controller` counts when it names a kind, not `kfserving-controller`). */
function kindsOf(f: Fields): string[] {
  const controller = str(f.controller);
  return [...KIND_KEYS.map((k) => str(f[k])), /inferenceservice$/i.test(controller ?? '') ? controller : undefined]
    .filter((k) => k !== undefined)
    .map((k) => k.toLowerCase());
}

/** A line of another kind's reconciler (an LLMInferenceService's, a TrainedModel's). */
const otherKind = (f: Fields, kind: string) => {
  const kinds = kindsOf(f);
  return kinds.length > 0 && !kinds.includes(kind.toLowerCase());
};

/**
 * The services a structured line names: the keys above, and controller-runtime's `name` /
 * `namespace` / `request` when the line is the reconciler's of that kind (or says no kind).
 */
function servicesNamed(f: Fields, kind: string): Named[] {
  const ns = str(f.namespace);
  const out: Named[] = [];
  for (const key of serviceKeys(kind)) {
    const v = f[key];
    if (isObj(v) && str(v.name)) out.push({ name: String(v.name), namespace: str(v.namespace) ?? ns });
    else if (str(v)) out.push(named(String(v), ns));
  }
  if (!otherKind(f, kind)) {
    if (str(f.name)) out.push({ name: String(f.name), namespace: ns });
    if (str(f.request)) out.push(named(String(f.request), ns));
  }
  return out;
}

/**
 * Whether a line is about the service: its UID; a structured field holding its name with its
 * namespace (or with none, when no line names that name in another namespace); or, on a line that
 * names no other service and no other namespace, `NS/NAME`, the name of an object it owns
 * (`NAME-predictor`, `NAME-predictor-default`, `NAME-predictor-00001`, `…-deployment`, `…-private`,
 * or one read from ownerReferences) or of a runtime it uses, as a whole name, never part of one.
 */
function aboutFlags(id: ServiceIdentity, lines: readonly string[]): { about: boolean[]; other: boolean[] } {
  const n = escapeRegExp(id.name);
  const ownedPattern = new RegExp(
    `^${n}-(?:predictor|transformer|explainer)(?:-default|-canary)?(?:-\\d{5}(?:-deployment|-private)?)?$`,
  );
  const owned = new Set(id.owned ?? []);
  const runtimes = new Set(id.runtimes ?? []);
  const owns = (token: string) => ownedPattern.test(token) || owned.has(token) || runtimes.has(token);
  const qualified = new RegExp(`(?:^|[^A-Za-z0-9.-])${escapeRegExp(id.namespace)}/${n}(?:$|[^A-Za-z0-9.-])`);
  const fields = lines.map(fieldsOf);
  const kind = id.kind ?? 'InferenceService';
  const services = fields.map((f) => servicesNamed(f, kind));
  // the same name in another namespace: a line naming it without a namespace cannot be told apart
  const elsewhere = services.some((all) =>
    all.some((s) => s.name === id.name && s.namespace !== undefined && s.namespace !== id.namespace),
  );
  const ours = (s: Named) =>
    s.name === id.name && (s.namespace === id.namespace || (s.namespace === undefined && !elsewhere));
  // a line naming another service (or this name in another namespace) is never about this one
  const other = services.map(
    (all, i) =>
      otherKind(fields[i] ?? {}, kind) ||
      all.some((s) => (s.name === id.name ? s.namespace !== undefined && s.namespace !== id.namespace : !owns(s.name))),
  );
  const about = lines.map((line, i) => {
    if (id.uid && line.includes(id.uid)) return true;
    const inLine = services[i] ?? [];
    if (otherKind(fields[i] ?? {}, kind)) return false;
    if (inLine.some(ours)) return true;
    const ns = str(fields[i]?.namespace);
    if (ns !== undefined && ns !== id.namespace) return false;
    if (inLine.some((s) => !owns(s.name))) return false;
    if (qualified.test(line)) return true;
    const tokens = line.split(/[^A-Za-z0-9-]+/);
    if (tokens.some((t) => runtimes.has(t))) return true;
    // an owned object's name without a namespace is this service's only while the name is nowhere else
    return (ns !== undefined || !elsewhere) && tokens.some(owns);
  });
  return { about, other };
}

const errorOf = (line: string) => /"error":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];

/** Indexes of the lines about the service. */
export function linesAbout(lines: readonly string[], id: ServiceIdentity): number[] {
  const { about, other } = aboutFlags(id, lines);
  const out = new Set<number>();
  lines.forEach((line, i) => {
    if (about[i]) {
      out.add(i);
      return;
    }
    const error = errorOf(line);
    if (!error || other[i]) return;
    for (const j of [i + 1, i + 2]) {
      const next = lines[j];
      if (next && about[j] && errorOf(next)?.endsWith(error)) out.add(i);
    }
  });
  return [...out].sort((a, b) => a - b);
}

/** The service's identity as the diagnosis knows it: namespace, name, UID, the runtimes its components name. */
export function identityOf(ctx: DiagnosisContext, owned: readonly string[] = []): ServiceIdentity {
  const isvc = ctx.target.isvc;
  const runtimes = componentsOf(isvc)
    .map((c) => c.runtime)
    .filter((r) => r !== undefined);
  return {
    namespace: ctx.target.namespace,
    name: ctx.target.name,
    kind: ctx.target.kind === 'llmisvc' ? 'LLMInferenceService' : 'InferenceService',
    ...(isvc.metadata?.uid ? { uid: isvc.metadata.uid } : {}),
    owned,
    runtimes,
  };
}

/** The controller's own container (its manager, not the RBAC proxy beside it). */
export function controllerContainerOf(pod: V1Pod): string {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  return names.find((n) => n === 'manager') ?? names.find((n) => n !== 'kube-rbac-proxy') ?? 'manager';
}

/** The controller's pods (found in any namespace by label); [] when the bot may not list them. */
export async function controllerPods(ctx: DiagnosisContext): Promise<V1Pod[]> {
  try {
    return (await ctx.reader.podsAllNamespaces(CONTROLLER_SELECTOR))
      .filter((p) => p.status?.phase === 'Running' || !p.status?.phase)
      .slice(0, 2);
  } catch (error) {
    if (error instanceof ForbiddenError) return [];
    throw error;
  }
}

/** The lines of each running controller pod (at most two) about the service; [] when none is visible. */
export async function controllerLinesAbout(
  ctx: DiagnosisContext,
  owned: readonly string[] = [],
): Promise<ControllerLines[]> {
  const pods = await controllerPods(ctx);
  const read = await Promise.all(pods.map((pod) => podLinesAbout(ctx, pod, controllerContainerOf(pod), owned)));
  return read.filter((r) => r.lines.length > 0);
}

/** One controller pod's log lines about the diagnosed service (none when its log may not be read). */
export async function podLinesAbout(
  ctx: DiagnosisContext,
  pod: V1Pod,
  container: string,
  owned: readonly string[] = [],
): Promise<ControllerLines> {
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '?';
  let text: string | null = null;
  try {
    text = await ctx.reader.podLog(ns, name, container);
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
  }
  const all = splitLogLines(text ?? '');
  const about = linesAbout(all, identityOf(ctx, owned));
  return {
    pod,
    ref: refOf('Pod', ns, name),
    container,
    lines: about.map((i) => all[i] ?? ''),
    lineNumbers: about.map((i) => i + 1),
  };
}
