/** Parses a (multi-document) YAML file into plain values; the first error becomes a SnapshotError with its line. */
import { parseAllDocuments } from 'yaml';
import { SnapshotError } from './snapshot-error.js';

export function parseYamlFile(text: string, file: string): unknown[] {
  const documents = parseAllDocuments(text, { prettyErrors: true });
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
