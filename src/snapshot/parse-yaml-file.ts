/** Parses a (multi-document) YAML file into plain values; the first error becomes a SnapshotError with its line. */
import { parseAllDocuments } from 'yaml';
import { SnapshotError } from './snapshot-error.js';

/** `failsafe`: every scalar stays a string (so `kserve: 0.10` is "0.10", not the number 0.1). */
export function parseYamlFile(text: string, file: string, options: { schema?: 'failsafe' } = {}): unknown[] {
  const documents = parseAllDocuments(text, { prettyErrors: true, ...(options.schema ? { schema: options.schema } : {}) });
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new SnapshotError(message, file, error.linePos?.[0]?.line);
    }
    if (doc.contents === null) continue; // an empty document (e.g. a trailing `---`)
    values.push(doc.toJS({ maxAliasCount: 1000 }));
  }
  return values;
}
