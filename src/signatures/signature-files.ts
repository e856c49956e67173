/**
 * A team's signature files named in a config (`diagnosis.signatures`), resolved relative to the
 * config file's folder, loaded before anything runs: a problem stops the start with the loader's
 * one-line message (the file, the entry, the field), raised as the caller's own error type.
 */
import path from 'node:path';
import { signatureCatalog } from './load-signatures.js';
import type { SignatureCatalog } from './signature-catalog.js';
import { SignatureError } from './signature-error.js';

export function signatureCatalogAt(files: readonly string[], baseDir: string, asError: (message: string) => Error): SignatureCatalog {
  try {
    return signatureCatalog(files.map((f) => path.resolve(baseDir, f)));
  } catch (error) {
    if (error instanceof SignatureError) throw asError(error.message);
    throw error;
  }
}
