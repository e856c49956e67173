/**
 * Turns the lines a playbook read (a container's log, the controller's lines about the service,
 * events, conditions) into findings through the signature catalog: one finding per code, whose
 * evidence holds the deciding line whole (the line of the entry consulted first, its latest
 * occurrence) with the traceback that led to it, and whose title and next step come from the entry.
 */
import type { FindingCode } from '../findings/catalog.js';
import { finding } from '../findings/finding.js';
import { componentViewOf, fieldPathOf } from './field-path.js';
import type { DiagnosisContext } from './playbook.js';
import type { Evidence, Finding } from '../findings/types.js';
import { findTracebacks } from '../logs/log-excerpt.js';
import { redactLines } from '../logs/redact.js';
import { fillTemplate, type TemplateValues } from '../signatures/fill-template.js';
import type { SignatureMatch, VersionFacts } from '../signatures/signature-catalog.js';
import type { SignatureSource } from '../signatures/signature-schema.js';

export interface LineSource {
  where: SignatureSource;
  /** The object the lines come from, "Kind namespace/name". */
  ref: string;
  /** log: the lines of a log (or of a message holding a log's tail); event / condition: one message per line. */
  kind: 'log' | 'event' | 'condition';
  lines: readonly string[];
  container?: string;
  previous?: boolean;
  /** What the lines are when not the container's own log ("termination message", "modelStatus.lastFailureInfo.message"). */
  label?: string;
  /** 1-based line numbers in the log, when `lines` are some of its lines (the controller's lines about one service). */
  lineNumbers?: readonly number[];
}

export interface SignatureScope {
  subject: string;
  component?: string;
  revision?: string;
  pod?: string;
  /** The pod's node, and the GPUs its container is allocated (LLM runtimes' fixes name them). */
  node?: string;
  gpus?: string;
  /** Codes the findings explain besides their own code's (e.g. the crash loop of the container whose log said why). */
  explains?: FindingCode[];
}

export interface SignatureResult {
  findings: Finding[];
  matches: SignatureMatch[];
}

export function templateValues(
  ctx: DiagnosisContext,
  scope: SignatureScope,
  source: LineSource,
  match?: RegExpExecArray,
): TemplateValues {
  const component = scope.component ?? 'predictor';
  // a v1alpha2 canary revision's values come from the canary's own block, not the default's
  const view = componentViewOf(ctx.target.isvc, component, scope.revision);
  return {
    values: {
      name: ctx.target.name,
      namespace: ctx.target.namespace,
      component,
      pod: scope.pod,
      container: source.container,
      storageUri: view?.storageUri,
      runtime: view?.runtime,
      modelFormat: view?.modelFormat,
      image: view?.image,
      knativeNamespace: ctx.config.knativeNamespace,
      node: scope.node,
      gpus: scope.gpus,
      serviceAccount: typeof view?.spec.serviceAccountName === 'string' ? view.spec.serviceAccountName : 'default',
      // the pod whose lines matched; events and conditions come from the controller's default install
      sourcePod: /^Pod \S+\/(\S+)$/.exec(source.ref)?.[1] ?? 'deploy/kserve-controller-manager',
      sourceNamespace: /^Pod (\S+)\//.exec(source.ref)?.[1] ?? 'kserve',
    },
    field: (key) => fieldPathOf(ctx.target.isvc, component, key, scope.revision),
    match: match ?? null,
  };
}

/** The last match on an exception line (the last word of a traceback), else the last match: where one cause ends a log. */
export function lastWord(matches: readonly SignatureMatch[]): SignatureMatch[] {
  const coded = matches.filter((m) => !m.entry.ignore && m.entry.code);
  const exceptionLine = /^[A-Za-z_.]*(Error|Exception|StopIteration)\b|^\S+: /;
  const last = [...coded].reverse().find((m) => exceptionLine.test(m.line.trim())) ?? coded.at(-1);
  // the exception line itself first: a traceback also quotes the source line that raised it (`raise
  // Exception(f"... {uri} ...")`), whose text is the template, not the values
  return last ? [last, ...coded.filter((m) => m !== last && m.entry.code === last.entry.code)] : [];
}

/**
 * Matches the lines and builds the findings (nothing when no entry matches). `choose` narrows the
 * matches when one log can have only one cause (the storage-initializer stops at its first error).
 */
export function signatureFindings(
  ctx: DiagnosisContext,
  source: LineSource,
  scope: SignatureScope,
  facts: VersionFacts,
  choose: (matches: readonly SignatureMatch[]) => SignatureMatch[] = (m) => [...m],
): SignatureResult {
  // redacted as a whole first: a key block's body lines are secrets only next to their BEGIN line
  source = { ...source, lines: redactLines(source.lines) };
  const matches = choose(ctx.signatures.matchLines(source.where, source.lines, facts));
  const decisive = decidingMatches(matches);
  const findings: Finding[] = [];
  for (const [code, m] of decisive) {
    const others = matches
      .filter((x) => !x.entry.ignore && (x.entry.code === code || x.entry.also.includes(code)))
      .map((x) => x.index);
    const primary = m.entry.code === code;
    const evidence = [lineEvidence(source, m.index, others), ...(primary ? noteEvidence(ctx, scope, source, m) : [])];
    const values = templateValues(ctx, scope, source, m.match);
    findings.push(
      finding(code, {
        subject: scope.subject,
        title: primary && m.entry.title ? fillTemplate(m.entry.title, values) : `${alsoTitle(code)}: ${m.line.trim()}`,
        evidence,
        component: scope.component,
        revision: scope.revision,
        ...(primary && m.entry.next ? { next: fillTemplate(m.entry.next, values) } : {}),
        ...(scope.explains?.length ? { explains: scope.explains } : {}),
      }),
    );
  }
  return { findings, matches };
}

/** For each code, the match of the entry consulted first (its first line: where it started); a code shown only through `also` last. */
function decidingMatches(matches: readonly SignatureMatch[]): Map<FindingCode, SignatureMatch> {
  const out = new Map<FindingCode, SignatureMatch>();
  const better = (a: SignatureMatch, b: SignatureMatch | undefined) => !b || a.entry.order < b.entry.order;
  for (const m of matches) {
    if (m.entry.ignore || !m.entry.code) continue;
    if (better(m, out.get(m.entry.code))) out.set(m.entry.code, m);
  }
  for (const m of matches) {
    for (const code of m.entry.ignore ? [] : m.entry.also) if (!out.has(code)) out.set(code, m);
  }
  return out;
}

const ALSO_TITLES: Partial<Record<FindingCode, string>> = {
  MODEL_LOAD_FAILED: 'The model server reports that the model failed to load',
  CONTROLLER_RECONCILE_FAILED: 'The controller fails to reconcile the InferenceService',
  STORAGE_INIT_FAILED: 'The storage-initializer fails',
  CRASH_LOOP: 'The model container exits',
};

function alsoTitle(code: FindingCode): string {
  return ALSO_TITLES[code] ?? code;
}

function noteEvidence(ctx: DiagnosisContext, scope: SignatureScope, source: LineSource, m: SignatureMatch): Evidence[] {
  if (!m.entry.note) return [];
  return [
    { kind: 'note', ref: source.ref, text: fillTemplate(m.entry.note, templateValues(ctx, scope, source, m.match)) },
  ];
}

/** The deciding line whole, with the traceback that ended in (or just before) it and the other matched lines. */
export function lineEvidence(source: LineSource, deciding: number, others: readonly number[]): Evidence {
  if (source.kind !== 'log') {
    return {
      kind: source.kind,
      ref: source.ref,
      text: source.lines[deciding]!,
      ...(source.container ? { container: source.container } : {}),
    };
  }
  const { indexes, truncated } = excerptAround(source.lines, deciding, others);
  return {
    kind: 'log',
    ref: source.ref,
    ...(source.container ? { container: source.container } : {}),
    ...(source.previous !== undefined ? { previous: source.previous } : {}),
    ...(source.label ? { text: source.label } : {}),
    excerpt: indexes.map((i) => source.lines[i]!),
    lineNumbers: indexes.map((i) => source.lineNumbers?.[i] ?? i + 1),
    truncated,
  };
}

const MAX_LINES = 20;
const TRACEBACK_BUDGET = 12;

function excerptAround(
  lines: readonly string[],
  deciding: number,
  others: readonly number[],
): { indexes: number[]; truncated: boolean } {
  const picked = new Set<number>([deciding]);
  let truncated = false;
  const traceback = findTracebacks(lines).find(([s, e]) => deciding >= s && deciding <= e + 3);
  if (traceback) {
    const [start, end] = traceback;
    // to the exception and the message lines after it (`- expected: …`), or to a deciding line just past it
    const all = Array.from({ length: Math.max(end, deciding) - start + 1 }, (_, k) => start + k).filter(
      (i) => i === deciding || lines[i]!.trim() !== '',
    );
    const kept = all.length <= TRACEBACK_BUDGET ? all : [...all.slice(0, 1), ...all.slice(-(TRACEBACK_BUDGET - 1))];
    if (kept.length < all.length) truncated = true;
    for (const i of kept) picked.add(i);
  }
  const rest = [...new Set(others)].filter((i) => !picked.has(i)).sort((a, b) => a - b);
  // repeats of one line (a server retrying every second) keep their first and last occurrence
  const shapes = new Map<string, number[]>();
  for (const i of rest) shapes.set(shapeOf(lines[i]!), [...(shapes.get(shapeOf(lines[i]!)) ?? []), i]);
  for (const run of shapes.values()) {
    const sameAsDeciding = shapeOf(lines[run[0]!]!) === shapeOf(lines[deciding]!);
    // the deciding line's own repeats: the last one says it still happens
    const keep = sameAsDeciding ? run.slice(-1) : run.length > 2 ? [run[0]!, run[run.length - 1]!] : run;
    if (keep.length < run.length) truncated = true;
    for (const i of keep) {
      if (picked.size >= MAX_LINES) {
        truncated = true;
        break;
      }
      picked.add(i);
    }
  }
  return { indexes: [...picked].sort((a, b) => a - b), truncated };
}

function shapeOf(line: string): string {
  return line.replace(/\d+/g, '0').replace(/[0-9a-f]{8,}/gi, 'x');
}
