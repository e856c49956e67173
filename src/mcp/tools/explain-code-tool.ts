/** `explain_code`: a finding code's catalog entry (what it means, when it is reported, the next step's form). */
import { z } from 'zod';
import { CodedError } from '../../core/coded-error.js';
import { CATALOG, FINDING_CODES, isFindingCode, type FindingCode } from '../../findings/catalog.js';
import { nextStepForm } from '../../findings/findings-doc.js';
import { mcpTool } from '../mcp-tool.js';

/** The entry as the tool and the catalog resource give it. */
export function explainCode(code: FindingCode) {
  const e = CATALOG[code];
  return {
    code,
    severity: e.severity,
    title: e.title,
    when: e.when,
    evidence: e.evidence,
    explains: [...e.explains],
    next: nextStepForm(code),
    specificity: FINDING_CODES.indexOf(code) + 1,
  };
}

export const explainCodeTool = mcpTool({
  name: 'explain_code',
  title: 'Explain a finding code',
  description:
    "What a finding code (e.g. OOM_KILLED, STORAGE_URI_NOT_FOUND) means: its severity, when a diagnosis reports it, the evidence that shows it, the less specific codes it explains, and the form of its next step (placeholders for the service's names).",
  input: {
    code: z.string().min(1).max(80).describe('a finding code, as a report gives it (rootCause, findings[].code)'),
  },
  output: {
    code: z.string(),
    severity: z.enum(['error', 'warning', 'info']),
    title: z.string(),
    when: z.string(),
    evidence: z.string(),
    explains: z.array(z.string()),
    next: z.string().nullable(),
    specificity: z.number(),
  },
  readOnly: true,
  async run(args) {
    const code = args.code.trim().toUpperCase();
    if (!isFindingCode(code)) {
      const close = FINDING_CODES.filter((c) => c.includes(code) || code.includes(c)).slice(0, 5);
      throw new CodedError(
        'UNKNOWN_CODE',
        `no finding code ${JSON.stringify(args.code.slice(0, 80))}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; the catalog: isvc-doctor://findings/catalog`,
      );
    }
    return explainCode(code);
  },
});
