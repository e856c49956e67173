/**
 * Runs each entry's own test: its sample must match its pattern and be taken by it (no entry
 * consulted before it takes the sample first), and none of its notMatching lines may match.
 * `isvc-doctor signatures test FILE` and the shipped catalog's unit test use it.
 */
import type { CompiledSignature, SignatureCatalog } from './signature-catalog.js';

export interface SignatureTestResult {
  id: string;
  file: string;
  problems: string[];
}

function takes(entry: CompiledSignature, text: string): boolean {
  entry.regex.lastIndex = 0;
  return entry.regex.test(text);
}

export function testSignature(entry: CompiledSignature, catalog: SignatureCatalog): SignatureTestResult {
  const problems: string[] = [];
  if (!takes(entry, entry.sample)) problems.push(`sample does not match pattern: ${JSON.stringify(entry.sample)}`);
  else if (!entry.ignore) {
    const first = catalog.entries.find(
      (e) => e.where === entry.where && e.order < entry.order && takes(e, entry.sample),
    );
    if (first) problems.push(`sample is taken first by entry "${first.id}" (${first.file}), consulted before it`);
  }
  for (const line of entry.notMatching)
    if (takes(entry, line)) problems.push(`pattern matches a notMatching line: ${JSON.stringify(line)}`);
  return { id: entry.id, file: entry.file, problems };
}

/** Tests the given entries (by default every entry) against the catalog they are consulted in. */
export function testSignatures(
  catalog: SignatureCatalog,
  entries: readonly CompiledSignature[] = catalog.entries,
): SignatureTestResult[] {
  return entries.map((e) => testSignature(e, catalog));
}
