/**
 * docs/findings.md, rendered from the catalog (pure): every code with its severity, when it is
 * reported, the evidence a person must see, what it explains, its next step (with placeholders
 * for the service's names) and, where the step is built from the evidence, each of its forms with
 * the evidence it comes from (filled from the form's sample), and what emits it.
 */
import { CATALOG, FINDING_CODES, type FindingCode } from './catalog.js';
import type { NextStepContext } from './next-step-context.js';
import { hasForms } from './next-step-forms.js';

const PLACEHOLDERS: NextStepContext = {
  namespace: '<namespace>',
  name: '<name>',
  podSelector: 'serving.kserve.io/inferenceservice=<name>',
  knativeNamespace: '<knative namespace>',
  fieldPath: (_component, field) =>
    field === 'serviceAccountName' || field === 'canaryTrafficPercent'
      ? `spec.<component>.${field}`
      : `spec.<component>.<model>.${field}`,
};
const FACTS = {
  subject: 'Pod <namespace>/<pod>',
  component: '<component>',
  revision: '<revision>',
  evidence: [{ kind: 'log', container: '<container>' }],
};

/** A code's next step with placeholders for the service's names (null: nothing to do). */
export function nextStepForm(code: FindingCode): string | null {
  const next = CATALOG[code].next;
  return next ? next(PLACEHOLDERS, FACTS) : null;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** `emitters`: code → what emits it (playbook ids, "the runner"); a code nothing emits yet says so. */
export function renderFindingsDoc(emitters: ReadonlyMap<FindingCode, readonly string[]>): string {
  const by = (code: FindingCode) => emitters.get(code)?.join(', ') || 'nothing yet';
  const out = [
    '# Finding codes',
    '',
    '<!-- Generated from src/findings/catalog.ts by `npm run docs:findings`; a test fails when this file is stale. Edit the catalog, not this file. -->',
    '',
    'Every finding of a diagnosis carries one stable code from this catalog: Slack messages, the JSON output, metrics,',
    'incident grouping and tests all speak in these codes. Codes never change meaning; wording around them may.',
    '',
    'Severity: `error` (a reason it is not ready), `warning` (degraded or risky, or a check that could not run),',
    '`info` (context: the clean bill, traffic split, request flow, links).',
    '',
    'The codes are listed most specific first. The first finding of a report is its root cause: the most specific',
    '`error`; the findings it explains (same component and revision) follow it, marked as its consequences. Every',
    'finding whose code has a next step carries it (`next` in the JSON output): the exact field to edit or command',
    "to run, with the service's names filled in (shown here with placeholders), unless its playbook gave a more",
    'specific one.',
    '',
    '| # | code | severity | when | emitted by |',
    '|---|---|---|---|---|',
    ...FINDING_CODES.map(
      (code, i) =>
        `| ${i + 1} | [\`${code}\`](#${code.toLowerCase()}) | ${CATALOG[code].severity} | ${cell(CATALOG[code].when)} | ${cell(by(code))} |`,
    ),
  ];
  for (const code of FINDING_CODES) {
    const e = CATALOG[code];
    out.push(
      '',
      `## ${code}`,
      '',
      `**${e.title}** (${e.severity})`,
      '',
      `- When: ${e.when}`,
      `- Evidence: ${e.evidence}`,
      `- Explains: ${e.explains.length ? e.explains.map((c) => `\`${c}\``).join(', ') : 'nothing'}`,
      `- Next step: ${e.next ? `\`${nextStepForm(code)}\`` : 'none (nothing to do)'}`,
      ...formLines(e.next),
      `- Emitted by: ${by(code)}`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** A step built from the evidence: each form, the evidence it reads, and the step its sample gives. */
function formLines(next: (typeof CATALOG)[FindingCode]['next']): string[] {
  if (!hasForms(next)) return [];
  return [
    '- Next step by the evidence it comes from:',
    ...next.forms.map((f) => {
      const step = f.build(PLACEHOLDERS, { ...FACTS, evidence: f.sample ?? FACTS.evidence });
      return `  - ${cell(f.from)}${step ? `: \`${cell(step)}\`` : ''}`;
    }),
  ];
}
