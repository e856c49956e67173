/**
 * Parses a (multi-document) YAML file into plain values; the first error becomes a SnapshotError
 * with its line. Aliases may expand to at most `MAX_ALIAS_COUNT` nodes each (the `yaml` package's
 * maxAliasCount), so an alias bomb ("billion laughs") is refused as bad input rather than taking
 * the process' memory; anything else the parser throws (nesting too deep) is bad input too.
 */
import { parseAllDocuments } from 'yaml';
import { SnapshotError } from './snapshot-error.js';

export const MAX_ALIAS_COUNT = 1000;
const NESTED_TOO_DEEPLY =
  'YAML nested too deeply to read (Kubernetes objects are a few dozen levels deep at most): refused as bad input';

/** `failsafe`: every scalar stays a string (so `kserve: 0.10` is "0.10", not the number 0.1). */
export function parseYamlFile(text: string, file: string, options: { schema?: 'failsafe' } = {}): unknown[] {
  try {
    return parseDocuments(text, file, options);
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new SnapshotError(
        `YAML aliases expand too far (more than ${MAX_ALIAS_COUNT} nodes for one alias): refused as a resource exhaustion attack`,
        file,
      );
    }
    if (error instanceof RangeError) throw new SnapshotError(NESTED_TOO_DEEPLY, file);
    throw new SnapshotError(`cannot read as YAML: ${(error as Error).message ?? String(error)}`, file);
  }
}

function parseDocuments(text: string, file: string, options: { schema?: 'failsafe' }): unknown[] {
  const documents = parseAllDocuments(text, {
    prettyErrors: true,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0]?.line;
      // the parser records its own stack overflow as the document's error, at the line it reached
      if (/maximum call stack/i.test(error.message)) throw new SnapshotError(NESTED_TOO_DEEPLY, file, line);
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new SnapshotError(message, file, line);
    }
    if (doc.contents === null) continue; // an empty document (e.g. a trailing `---`)
    values.push(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
  }
  return values;
}
