/**
 * A next step built from the evidence that decided its finding: a code's next step is a list of
 * forms, each reading one kind of evidence (the exception that ended a crash log, the object a
 * probe's 403 comes from, the quota's used/hard) and naming what it found (the module, the env var,
 * the object's kind and name, the resource). The first form whose evidence the finding carries
 * builds the step; the last form of a list is its fallback, which says which evidence was missing
 * and the exact command that gets it (it starts with FALLBACK_LABEL). docs/findings.md shows every
 * form of a code with the evidence it comes from, filled from the form's own sample evidence.
 */
import type { FindingFacts, NextStepTemplate } from './catalog.js';
import type { NextStepContext } from './next-step-context.js';

export type FactsEvidence = FindingFacts['evidence'][number];

export interface NextStepForm {
  /** The evidence it is built from, in a few words (docs/findings.md). */
  from: string;
  /** The step, or undefined when the finding does not carry that evidence. */
  build(c: NextStepContext, f: FindingFacts): string | undefined;
  /** Evidence that yields this form (the docs show the step built from it; a test checks that it does). */
  sample?: FactsEvidence[];
}

/** One form: `read` takes what the step needs from the finding's evidence. */
export function form<M>(
  from: string,
  read: (f: FindingFacts) => M | undefined,
  step: (c: NextStepContext, f: FindingFacts, m: M) => string,
  sample?: FactsEvidence[],
): NextStepForm {
  return {
    from,
    build: (c, f) => {
      const m = read(f);
      return m === undefined ? undefined : step(c, f, m);
    },
    ...(sample ? { sample } : {}),
  };
}

/** A template with its forms attached (docs/findings.md lists them). */
export type FormsTemplate = NextStepTemplate & { forms: readonly NextStepForm[] };

/** The template that tries the forms in order; the last one must always build (the fallback). */
export function byForms(...forms: NextStepForm[]): FormsTemplate {
  const template = (c: NextStepContext, f: FindingFacts) => {
    for (const x of forms) {
      const step = x.build(c, f);
      if (step !== undefined) return step;
    }
    return '';
  };
  return Object.assign(template, { forms });
}

export function hasForms(t: NextStepTemplate | null): t is FormsTemplate {
  return t !== null && Array.isArray((t as Partial<FormsTemplate>).forms);
}

// ---- reading evidence -------------------------------------------------------------------------------

/** Every line the finding shows: its title, each evidence's text and excerpt. */
export function linesOf(f: FindingFacts): string[] {
  return [f.title ?? '', ...f.evidence.flatMap((e) => [e.text ?? '', ...(e.excerpt ?? [])])].filter(Boolean);
}

/** The first match of a pattern over the finding's lines (log excerpts last line first: where a log ends). */
export function matchIn(f: FindingFacts, pattern: RegExp): RegExpExecArray | undefined {
  const logLast = f.evidence.flatMap((e) => (e.kind === 'log' ? [...(e.excerpt ?? [])].reverse() : []));
  for (const line of [...logLast, ...linesOf(f)]) {
    const m = pattern.exec(line);
    if (m) return m;
  }
  return undefined;
}

/** The exception line that ends a log excerpt ("KeyError: 'LABELS_URL'", "exec /bin/sh: exec format error"). */
export function lastErrorLine(f: FindingFacts): string | undefined {
  const exception =
    /^(?:\S+ )?(?:[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b.*|.*\b(?:error|fatal|panic)\b.*)$/i;
  for (const e of f.evidence) {
    if (e.kind !== 'log') continue;
    const line = [...(e.excerpt ?? [])].reverse().find((l) => exception.test(l.trim()));
    if (line) return stripTimestamp(line.trim());
  }
  return undefined;
}

function stripTimestamp(line: string): string {
  return line.replace(/^\d{4}-\d\d-\d\d[T ][\d:.,]+Z?\s+/, '');
}

/** The objects the evidence was read from, by kind ("EnvoyFilter istio-system/authn-filter"). */
export function refsOfKind(
  f: FindingFacts,
  kinds: readonly string[],
): Array<{ kind: string; ns?: string; name: string }> {
  const out: Array<{ kind: string; ns?: string; name: string }> = [];
  for (const e of f.evidence) {
    const m = /^(\S+) (?:([\w.-]+)\/)?([\w.-]+)$/.exec(e.ref ?? '');
    if (!m || !kinds.includes(m[1] ?? '')) continue;
    if (!out.some((o) => o.kind === m[1] && o.name === m[3] && o.ns === m[2]))
      out.push({ kind: m[1] ?? '', ...(m[2] ? { ns: m[2] } : {}), name: m[3] ?? '' });
  }
  return out;
}

/** Whether the finding says its logs could not be read. */
export function logsUnreadable(f: FindingFacts): string | undefined {
  return linesOf(f).find((l) => /logs unavailable|cannot get pods\/log|forbidden.*pods\/log/i.test(l));
}

/** "Pod ns/name" → name. */
export function podName(f: FindingFacts): string | undefined {
  return /^Pod \S+\/(\S+)$/.exec(f.subject)?.[1];
}
