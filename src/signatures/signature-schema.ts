/**
 * The shape of a signature file: log, condition and event patterns that map to a finding code,
 * shipped with the playbooks (playbooks/signatures/*.yaml) or written by a team (config
 * `diagnosis.signatures`). Validated with zod when loaded; `isvc-doctor signatures test FILE` runs
 * each entry's sample against its pattern.
 */
import semver from 'semver';
import { z } from 'zod';
import { CATALOG, isFindingCode, type FindingCode } from '../findings/catalog.js';
import { TEMPLATE_PLACEHOLDERS, placeholdersOf } from './fill-template.js';

/**
 * Where an entry looks:
 * - `model-log`: the model server containers' logs (predictor, transformer, explainer; current or
 *   previous instance), and the termination message / `modelStatus` message that copy their tail;
 * - `storage-initializer`: the storage-initializer init container's log (and its copies);
 * - `controller`: the KServe / KFServing controller's log lines that name the service, and the
 *   Warning events it records on the InferenceService;
 * - `event`: events about the service's objects (pods, revisions, replica sets);
 * - `condition`: status conditions of the InferenceService and its Knative objects, and
 *   `modelStatus.lastFailureInfo`.
 */
export const SIGNATURE_SOURCES = ['model-log', 'storage-initializer', 'controller', 'event', 'condition'] as const;
export type SignatureSource = (typeof SIGNATURE_SOURCES)[number];

export const VERSION_KEYS = ['kserve', 'knative'] as const;
export type VersionKey = (typeof VERSION_KEYS)[number];

const code = z
  .string()
  .refine(isFindingCode, (v) => ({ message: `unknown finding code "${v}"` })) as unknown as z.ZodType<FindingCode>;

const pattern = z
  .string()
  .min(1, 'expected a regular expression')
  .superRefine((value, ctx) => {
    try {
      new RegExp(value);
    } catch (error) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
      });
    }
  });

const range = z.string().refine(
  (v) => semver.validRange(v) !== null,
  (v) => ({ message: `"${v}" is not a version range (e.g. "<0.8" or ">=0.7 <0.10")` }),
);

const template = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    for (const name of placeholdersOf(value)) {
      if (!TEMPLATE_PLACEHOLDERS.some((p) => (p.endsWith(':') ? name.startsWith(p) : name === p))) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `unknown placeholder {${name}} (known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}${p.endsWith(':') ? '…' : ''}}`).join(', ')})`,
        });
      }
    }
  });

export const signatureEntrySchema = z
  .object({
    /** Stable id, unique across every loaded file. */
    id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'expected lower-case letters, digits, "." and "-"'),
    where: z.enum(SIGNATURE_SOURCES),
    /** Matched against one line at a time (a JavaScript regular expression). */
    pattern,
    ignoreCase: z.boolean().default(false),
    /** How many consecutive lines the pattern sees at once, joined with "\n" (a table, a wrapped message). */
    lines: z.number().int('expected an integer').min(1).max(10).default(1),
    /** The finding a matching line shows; absent when `ignore` (a line known to mean nothing). */
    code: code.optional(),
    ignore: z.boolean().default(false),
    /** Less specific codes the same line also shows (listed as consequences). */
    also: z.array(code).default([]),
    /** One line: what is wrong, with placeholders ({name}, {match:1}, …). */
    title: template.optional(),
    /** The step a person takes next, with this service's names. */
    next: template.optional(),
    /** Shown with the evidence: why the line means what the entry says (e.g. a misleading message). */
    note: template.optional(),
    /** Releases the entry applies to; an entry applies when the release is not known. */
    versions: z.object({ kserve: range.optional(), knative: range.optional() }).strict().optional(),
    /** A line the pattern must match (run by `isvc-doctor signatures test`). */
    sample: z.string().min(1),
    /** Lines the pattern must not match. */
    notMatching: z.array(z.string()).default([]),
    /** Where the signature comes from (issue, release note). */
    reference: z.string().url('expected a URL').optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (entry.ignore) {
      if (entry.code) issue('code', 'an ignored entry has no code');
      return;
    }
    if (!entry.code) return issue('code', 'required (or ignore: true)');
    if (!entry.title) issue('title', 'required');
    if (isFindingCode(entry.code) && CATALOG[entry.code].severity === 'error' && !entry.next)
      issue('next', `required for an error code (${entry.code})`);
  });

export type SignatureEntry = z.infer<typeof signatureEntrySchema>;

export const signatureFileSchema = z
  .object({ signatures: z.array(signatureEntrySchema).min(1, 'expected at least one entry') })
  .strict();
