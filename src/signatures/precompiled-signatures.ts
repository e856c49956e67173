/**
 * The shipped signature files, parsed and validated when the package is built, in one JSON file next
 * to them (write-precompiled-signatures.ts): a process reads the shipped catalog without parsing
 * YAML or running the schema, which otherwise took a good part of a short diagnosis's start-up. The
 * file keeps each YAML file's content hash; when a YAML file was changed, added or removed since, it
 * is stale and the YAML is read as before.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileSignature, type CompiledSignature } from './signature-catalog.js';
import type { SignatureEntry } from './signature-schema.js';

export const PRECOMPILED_SIGNATURES = 'precompiled.json';

export interface PrecompiledFile {
  /** The YAML file's name in the folder. */
  name: string;
  sha256: string;
  /** Its entries as the schema returned them (defaults filled in). */
  signatures: SignatureEntry[];
}

export const contentHash = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The entries of `yamlFiles` (in that order, all in `dir`) from the precompiled file; undefined when it is absent or stale. */
export function readPrecompiledSignatures(dir: string, yamlFiles: readonly string[]): CompiledSignature[] | undefined {
  let files: PrecompiledFile[];
  try {
    files = (JSON.parse(readFileSync(path.join(dir, PRECOMPILED_SIGNATURES), 'utf8')) as { files: PrecompiledFile[] })
      .files;
  } catch {
    return undefined;
  }
  if (files.length !== yamlFiles.length) return undefined;
  const entries: CompiledSignature[] = [];
  for (const [i, file] of yamlFiles.entries()) {
    const precompiled = files[i];
    if (precompiled?.name !== path.basename(file)) return undefined;
    try {
      if (contentHash(readFileSync(file)) !== precompiled.sha256) return undefined;
    } catch {
      return undefined;
    }
    for (const entry of precompiled.signatures) entries.push(compileSignature(entry, file, entries.length));
  }
  return entries;
}
