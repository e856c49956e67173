/**
 * Loads signature files: the ones shipped in playbooks/signatures/ (cached for the process) and a
 * team's own (config `diagnosis.signatures`), validated with zod. Any problem is a SignatureError
 * whose one-line message names the file, the entry and the field, e.g.
 * `signatures: /etc/isvc-doctor/team.yaml: entry 2 (id "oom-cuda"): pattern: invalid regular expression: …`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { readPrecompiledSignatures } from './precompiled-signatures.js';
import { compileSignature, SignatureCatalog, type CompiledSignature } from './signature-catalog.js';
import { SignatureError } from './signature-error.js';
import { signatureFileSchema } from './signature-schema.js';

/** The folder of the shipped files, next to the playbooks (in the source tree and in dist/). */
export const SHIPPED_SIGNATURES_DIR = fileURLToPath(new URL('../../playbooks/signatures/', import.meta.url));

function describeIssue(file: string, raw: unknown, issue: z.ZodIssue): string {
  const [top, index, ...rest] = issue.path;
  if (top === 'signatures' && typeof index === 'number') {
    const id = (raw as { signatures?: Array<{ id?: unknown }> }).signatures?.[index]?.id;
    const field = rest.join('.') || '(entry)';
    return `signatures: ${file}: entry ${index + 1}${typeof id === 'string' ? ` (id "${id}")` : ''}: ${field}: ${issue.message}`;
  }
  const message = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message;
  return `signatures: ${file}: ${issue.path.join('.') || '(top level)'}: ${message}`;
}

/** Reads and validates one file; `first` is the catalog order its first entry gets. */
export function loadSignatureFile(file: string, first = 0): CompiledSignature[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SignatureError(
      `signatures: ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const line = error instanceof YAMLParseError ? error.linePos?.[0]?.line : undefined;
    throw new SignatureError(
      `signatures: ${file}${line ? `:${line}` : ''}: invalid YAML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const parsed = signatureFileSchema.safeParse(raw);
  if (!parsed.success) throw new SignatureError(describeIssue(file, raw, parsed.error.issues[0]!));
  return parsed.data.signatures.map((entry, i) => compileSignature(entry, file, first + i));
}

/** Ids are unique across every file loaded; a clash names the entry of the file loaded first (a team's, before the shipped ones). */
function checkUniqueIds(entries: readonly CompiledSignature[]): void {
  const seen = new Map<string, CompiledSignature>();
  entries.forEach((e) => {
    const first = seen.get(e.id);
    if (first) throw new SignatureError(`signatures: ${first.file}: entry id "${e.id}": id: already used in ${e.file}`);
    seen.set(e.id, e);
  });
}

/** A catalog of the given files, in order. */
export function loadSignatureFiles(files: readonly string[]): SignatureCatalog {
  const entries: CompiledSignature[] = [];
  for (const file of files) entries.push(...loadSignatureFile(file, entries.length));
  checkUniqueIds(entries);
  return new SignatureCatalog(entries);
}

/** The signature files of a folder: every .yaml in it, by name. */
export function shippedSignatureFiles(dir = SHIPPED_SIGNATURES_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The catalog of a folder of shipped files: precompiled when the build left an up-to-date form of them, else from the YAML. */
export function loadShippedSignatures(dir: string): SignatureCatalog {
  const files = shippedSignatureFiles(dir);
  const precompiled = readPrecompiledSignatures(dir, files);
  return precompiled ? new SignatureCatalog(precompiled) : loadSignatureFiles(files);
}

let shipped: SignatureCatalog | undefined;

/** The shipped signatures (playbooks/signatures), loaded once per process. */
export function shippedSignatures(): SignatureCatalog {
  shipped ??= loadShippedSignatures(SHIPPED_SIGNATURES_DIR);
  return shipped;
}

/** A team's files (consulted first) with the shipped ones; ids must be unique across both. */
export function signatureCatalog(userFiles: readonly string[] = []): SignatureCatalog {
  if (userFiles.length === 0) return shippedSignatures();
  const catalog = shippedSignatures().withFirst(loadSignatureFiles(userFiles));
  checkUniqueIds(catalog.entries);
  return catalog;
}
