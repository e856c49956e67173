/**
 * What a spec change altered between two Knative revisions of one InferenceService component: the
 * serving (previous, or the v1alpha2 default) revision and the new one (a canary, a failed rollout).
 * A Revision keeps the whole pod template it was made from, so the difference is read from the two
 * objects: each container's image, command, args, env and resources (matched by name), and the
 * annotations KServe and Knative act on (the model's storage URI, autoscaling). Values Knative writes
 * for each revision on its own (K_REVISION, its creator, its routing state) are not changes.
 */
import type { Revision } from '../kube/schemas.js';

export interface RevisionChange {
  /** What changed, as a person names it: `image`, `storageUri`, `env MODEL_NAME`, `resources.limits.memory`. */
  what: string;
  was: string;
  now: string;
}

interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name?: string; value?: string; valueFrom?: unknown }>;
  resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
}

const SOURCE_URI = 'internal.serving.kserve.io/storage-initializer-sourceuri';
/** Env Knative sets per revision (its name, configuration, service, port): never a change of the spec. */
const PER_REVISION_ENV = new Set(['K_REVISION', 'K_CONFIGURATION', 'K_SERVICE', 'PORT']);
/** Annotations Knative writes per revision, or that only record who applied what. */
const BOOKKEEPING = /^(?:serving\.knative\.dev\/|kubectl\.kubernetes\.io\/last-applied-configuration$)/;

const containersOf = (r: Revision): Container[] =>
  (r.spec as { containers?: Container[] } | undefined)?.containers ?? [];
const none = (v: string | undefined) => (v === undefined || v === '' ? 'none' : v);

function envValue(e: { value?: string; valueFrom?: unknown } | undefined): string | undefined {
  if (!e) return undefined;
  // a value taken from a Secret or ConfigMap is named by where it comes from, never read
  return e.value ?? (e.valueFrom ? `from ${JSON.stringify(e.valueFrom).replace(/"/g, '')}` : '');
}

function containerChanges(a: Container, b: Container, prefix: string): RevisionChange[] {
  const out: RevisionChange[] = [];
  const push = (what: string, was: string | undefined, now: string | undefined) => {
    if (none(was) !== none(now)) out.push({ what: `${prefix}${what}`, was: none(was), now: none(now) });
  };
  push('image', a.image, b.image);
  push('command', a.command?.join(' '), b.command?.join(' '));
  push('args', a.args?.join(' '), b.args?.join(' '));
  const envA = new Map((a.env ?? []).map((e) => [e.name ?? '', e]));
  const envB = new Map((b.env ?? []).map((e) => [e.name ?? '', e]));
  for (const name of new Set([...envA.keys(), ...envB.keys()]))
    if (!PER_REVISION_ENV.has(name)) push(`env ${name}`, envValue(envA.get(name)), envValue(envB.get(name)));
  for (const kind of ['limits', 'requests'] as const) {
    const ra = a.resources?.[kind] ?? {};
    const rb = b.resources?.[kind] ?? {};
    for (const res of new Set([...Object.keys(ra), ...Object.keys(rb)]))
      push(
        `resources.${kind}.${res}`,
        ra[res] === undefined ? undefined : String(ra[res]),
        rb[res] === undefined ? undefined : String(rb[res]),
      );
  }
  return out;
}

/** The changes from `serving` to `next`, the model's URI and images first; [] when either is unknown. */
export function revisionChanges(serving: Revision | undefined, next: Revision | undefined): RevisionChange[] {
  if (!serving || !next) return [];
  const out: RevisionChange[] = [];
  const annA = serving.metadata.annotations ?? {};
  const annB = next.metadata.annotations ?? {};
  if (none(annA[SOURCE_URI]) !== none(annB[SOURCE_URI]))
    out.push({ what: 'storageUri', was: none(annA[SOURCE_URI]), now: none(annB[SOURCE_URI]) });
  const [ca, cb] = [containersOf(serving), containersOf(next)];
  const [onlyA, onlyB] = [ca.length === 1 ? ca[0] : undefined, cb.length === 1 ? cb[0] : undefined];
  // one container each (the usual predictor): compared whatever their names; else matched by name
  if (onlyA && onlyB) out.push(...containerChanges(onlyA, onlyB, ''));
  else
    for (const b of cb) {
      const a = ca.find((x) => x.name === b.name);
      if (a) out.push(...containerChanges(a, b, `${b.name} `));
      else out.push({ what: `container ${b.name}`, was: 'none', now: 'added' });
    }
  for (const key of new Set([...Object.keys(annA), ...Object.keys(annB)]))
    if (key !== SOURCE_URI && !BOOKKEEPING.test(key) && none(annA[key]) !== none(annB[key]))
      out.push({ what: `annotation ${key}`, was: none(annA[key]), now: none(annB[key]) });
  return out;
}

const MAX_VALUE = 120;
const short = (v: string) => (v.length <= MAX_VALUE ? v : `${v.slice(0, MAX_VALUE - 1)}…`);

/** `storageUri gs://a -> gs://b; env MODEL_NAME x -> y` (each value cut at 120 characters). */
export function describeChanges(changes: readonly RevisionChange[]): string {
  return changes.map((c) => `${c.what} ${short(c.was)} -> ${short(c.now)}`).join('; ');
}
