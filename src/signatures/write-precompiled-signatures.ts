/**
 * Writes the precompiled form of the shipped signature files (precompiled-signatures.ts) into their
 * folder: the build runs it on dist/playbooks/signatures. Files that do not validate, or ids used
 * twice, stop it with the same message as loading them would.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSignatureFiles, shippedSignatureFiles } from './load-signatures.js';
import { contentHash, PRECOMPILED_SIGNATURES, type PrecompiledFile } from './precompiled-signatures.js';

export function writePrecompiledSignatures(dir: string): string {
  const yamlFiles = shippedSignatureFiles(dir);
  const entries = loadSignatureFiles(yamlFiles).entries;
  const files: PrecompiledFile[] = yamlFiles.map((file) => ({
    name: path.basename(file),
    sha256: contentHash(readFileSync(file)),
    signatures: entries
      .filter((e) => e.file === file)
      .map(({ regex: _regex, file: _file, order: _order, ...entry }) => entry),
  }));
  const out = path.join(dir, PRECOMPILED_SIGNATURES);
  writeFileSync(out, `${JSON.stringify({ files })}\n`);
  return out;
}
