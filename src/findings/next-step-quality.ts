/**
 * What makes a next step unusable at 3 a.m., checked over every finding of a report (pure):
 * - an unfilled placeholder: a template slot (`{storageUri}`, `{field:runtime}`) or an angle-bracket
 *   name (`<controller namespace>`, `<name>`) that was never filled; an angle-bracket text quoted from
 *   the evidence (`<nil>`, a Python repr) is the cluster's own words, not a placeholder;
 * - a field path of the InferenceService that this object does not have: a path whose parent does
 *   not exist, a key that is not settable where it is named, or one that another key of the same
 *   object stands for (`storageUri` where the spec uses `storageUris`; `spec.predictor.…` on a
 *   v1alpha2 object, whose components sit under `spec.default`);
 * - a generic phrase ("fix what the traceback names", "the conditions and events name the
 *   component") outside a labelled fallback: a next step that starts with FALLBACK_LABEL says which
 *   evidence was missing and the command that gets it, and may speak generally.
 */
import type { Finding } from './types.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

/** How a next step that had no evidence to go on starts. */
export const FALLBACK_LABEL = 'Evidence missing:';

/** Phrases that stand in for the fix instead of naming it. */
export const GENERIC_PHRASES: readonly RegExp[] = [
  /fix what the traceback names/i,
  /conditions and events (?:name|say)/i,
  /\bfix that\b/i,
  /fix what (?:it|the controller|the webhook) reports/i,
  /fix why the ingress is not configured/i,
  /describe the one that is not ready/i,
  /find why the server does not answer/i,
  /fix the model or its format that the runtime refuses/i,
  /names? what no node has/i,
  /(?:listed|shown|named|is) in the evidence|\(evidence(?: lists what exists)?\)|the evidence (?:names|says|lists|shows)/i,
  /its message is in the evidence/i,
  /the model server's own lines say why/i,
];

export type NextStepProblemKind = 'placeholder' | 'field-path' | 'generic';

export interface NextStepProblem {
  code: string;
  kind: NextStepProblemKind;
  /** The offending text (the placeholder, the path, the phrase). */
  text: string;
  next: string;
}

const TEMPLATE_SLOT = /\{(?:[A-Za-z]+(?::[A-Za-z0-9_]+)?)\}|\$\{[^}]*\}/g;
const ANGLE_NAME = /<[A-Za-z][\w .:/-]*>/g;

/** Everything the finding quotes from the cluster (its title and evidence). */
function quoted(f: Finding): string {
  return [f.title, ...f.evidence.flatMap((e) => [e.text ?? '', e.ref, ...(e.excerpt ?? [])])].join('\n');
}

export function placeholdersIn(next: string, quotedText = ''): string[] {
  const slots = [...next.matchAll(TEMPLATE_SLOT)].map((m) => m[0]);
  const names = [...next.matchAll(ANGLE_NAME)].map((m) => m[0]).filter((n) => !quotedText.includes(n));
  return [...slots, ...names];
}

export function genericPhrasesIn(next: string): string[] {
  if (next.startsWith(FALLBACK_LABEL)) return [];
  return GENERIC_PHRASES.flatMap((p) => {
    const m = p.exec(next);
    return m ? [m[0]] : [];
  });
}

/** Keys a person may add where they are missing, by what holds them. */
const COMPONENT_KEYS = new Set([
  'serviceAccountName',
  'minReplicas',
  'maxReplicas',
  'canaryTrafficPercent',
  'nodeSelector',
  'tolerations',
  'affinity',
  'timeout',
  'containerConcurrency',
  'parallelism',
  'scaleTarget',
  'scaleMetric',
  'batcher',
  'logger',
  'annotations',
  'labels',
  'imagePullSecrets',
  'securityContext',
  'volumes',
  'runtimeClassName',
  'priorityClassName',
  'deploymentStrategy',
]);
const MODEL_KEYS = new Set([
  'storageUri',
  'runtimeVersion',
  'runtime',
  'protocolVersion',
  'resources',
  'image',
  'args',
  'command',
  'env',
  'ports',
  'readinessProbe',
  'livenessProbe',
  'startupProbe',
  'modelFormat',
  'securityContext',
  'volumeMounts',
]);
const FRAMEWORKS =
  /^(?:model|sklearn|xgboost|tensorflow|pytorch|onnx|triton|tensorrt|lightgbm|pmml|paddle|huggingface|custom|alibi|aix|art)$/;
const COMPONENTS = /^(?:predictor|transformer|explainer)$/;

/** The segments of a path as written: `a.b[0].c`, `env[STORAGE_URI]`, `containers.0`. */
function segments(path: string): string[] {
  return path
    .replace(/\[([^\]]+)\]/g, '.[$1]')
    .split('.')
    .filter(Boolean);
}

/** Another key of the same object that the missing one is a variant of (plural, case, underscores). */
function shadowOf(missing: string, parent: Obj): string | undefined {
  const norm = (k: string) => k.toLowerCase().replace(/_/g, '').replace(/s$/, '');
  return Object.keys(parent).find((k) => k !== missing && norm(k) === norm(missing));
}

/** Why a path of the InferenceService does not fit the object, or undefined when it does. */
export function fieldPathProblem(isvc: unknown, path: string): string | undefined {
  const parts = segments(path);
  let at: unknown = isvc;
  let above: unknown;
  const trail: string[] = [];
  for (const [i, part] of parts.entries()) {
    const parentPath = trail.join('.');
    if (part === '[*]') return undefined;
    const index = /^\[(.+)\]$/.exec(part)?.[1];
    if (index !== undefined) {
      if (!Array.isArray(at)) return `${parentPath} is not a list in this object`;
      const byName = at.find((x) => isObj(x) && x.name === index);
      at = /^\d+$/.test(index) ? at[Number(index)] : byName;
      if (at === undefined && /^\d+$/.test(index)) return `${parentPath} has no item ${index}`;
      if (at === undefined) return undefined; // an env var to add by name
      trail.push(part);
      continue;
    }
    if (Array.isArray(at) && /^\d+$/.test(part)) {
      at = at[Number(part)];
      if (at === undefined) return `${parentPath} has no item ${part}`;
      trail.push(part);
      continue;
    }
    if (!isObj(at)) return `${parentPath || 'the object'} holds no fields`;
    if (part in at) {
      above = at;
      at = at[part];
      trail.push(part);
      continue;
    }
    // a variant of the key here, or one level up (a component's storageUris stands for its model's storageUri)
    const shadow = shadowOf(part, at) ?? (isObj(above) ? shadowOf(part, above) : undefined);
    if (shadow) return `${parentPath} has no ${part}: this object uses ${shadow}`;
    if (!settable(parts.slice(0, i), part, at)) return `${parentPath} has no ${part}`;
    return undefined; // the rest is added with it
  }
  return undefined;
}

/** Whether a missing key may be added where the path names it. */
function settable(parentParts: string[], key: string, parent: Obj): boolean {
  const last = parentParts.at(-1) ?? '';
  const prev = parentParts.at(-2) ?? '';
  if (parentParts.length === 1 && last === 'spec') return key === 'canaryTrafficPercent' && 'default' in parent;
  if (COMPONENTS.test(last)) {
    if (key === 'canaryTrafficPercent') return parentParts[1] !== 'default' && parentParts[1] !== 'canary';
    return COMPONENT_KEYS.has(key) || (key === 'storageUris' && !Object.keys(parent).some((k) => FRAMEWORKS.test(k)));
  }
  if (last === 'custom') return key === 'container'; // a v1alpha2 custom predictor holds one container
  if (
    FRAMEWORKS.test(last) ||
    (/^\d+$/.test(last) && prev === 'containers') ||
    (last === 'container' && prev === 'custom')
  ) {
    if (key === 'storageUri' && prev === 'containers') return false; // a custom container reads STORAGE_URI from env
    return MODEL_KEYS.has(key);
  }
  if (last === 'resources') return key === 'limits' || key === 'requests';
  if (last === 'limits' || last === 'requests' || last === 'annotations' || last === 'labels') return true;
  if (last === 'nodeSelector') return true;
  return false;
}

/** Paths of an InferenceService named in a next step ("spec.predictor.model.storageUri", …). */
export function isvcPathsIn(next: string): string[] {
  const paths = next.matchAll(
    /(?<![\w.{/-])spec\.(?:predictor|transformer|explainer|default|canary|canaryTrafficPercent)[\w.[\]*-]*/g,
  );
  return [...paths].map((m) => {
    let path = m[0];
    for (;;) {
      if (/[.,;:)]$/.test(path)) path = path.slice(0, -1);
      else if (path.endsWith(']') && path.split('[').length < path.split(']').length) path = path.slice(0, -1);
      else return path;
    }
  });
}

/** Every problem of the next steps of a report's findings; `isvc` is the InferenceService when it was found. */
export function nextStepProblems(findings: readonly Finding[], isvc?: unknown): NextStepProblem[] {
  const out: NextStepProblem[] = [];
  for (const f of findings) {
    const next = f.next;
    if (!next) continue;
    for (const text of placeholdersIn(next, quoted(f))) out.push({ code: f.code, kind: 'placeholder', text, next });
    for (const text of genericPhrasesIn(next)) out.push({ code: f.code, kind: 'generic', text, next });
    if (isvc === undefined) continue;
    for (const path of isvcPathsIn(next)) {
      const why = fieldPathProblem(isvc, path);
      if (why) out.push({ code: f.code, kind: 'field-path', text: `${path}: ${why}`, next });
    }
  }
  return out;
}

/** Whether a term ("a|b": either, case-insensitive) is named in the text. */
export function namesTerm(text: string, term: string): boolean {
  const lower = text.toLowerCase();
  return term.split('|').some((t) => lower.includes(t.toLowerCase()));
}

export interface AdviceVerdict {
  /** The text judged: the root cause's next step (no root cause: every finding's next step and note). */
  text: string;
  /** Terms it should name and does not. */
  missing: string[];
  /** Terms it names and should not. */
  wrong: string[];
  /** The quality problems of every finding's next step. */
  problems: NextStepProblem[];
  ok: boolean;
}

/**
 * Judges a report's advice against terms written from the report's fix: the root cause's next step
 * names every `must` term and no `mustNot` term, and no next step of the report has a quality problem.
 */
export function judgeAdvice(
  report: { rootCause: string | null; findings: readonly Finding[] },
  must: readonly string[],
  mustNot: readonly string[],
  isvc?: unknown,
): AdviceVerdict {
  const root = report.rootCause ? report.findings[0] : undefined;
  const text = root
    ? (root.next ?? '')
    : report.findings
        .flatMap((f) => [f.next ?? '', ...f.evidence.filter((e) => e.kind === 'note').map((e) => e.text ?? '')])
        .join('\n');
  const missing = must.filter((t) => !namesTerm(text, t));
  const wrong = mustNot.filter((t) => namesTerm(text, t));
  const problems = nextStepProblems(report.findings, isvc);
  return { text, missing, wrong, problems, ok: missing.length === 0 && wrong.length === 0 && problems.length === 0 };
}
