/**
 * `-o text|json|yaml`: how a command prints its result (json and yaml: the same one object). Both
 * are terminal-safe like the text: a character from the cluster that a terminal would obey (C0 and
 * C1 controls, DEL, bidirectional overrides) is printed as the escape `\u009b`, never raw.
 */
import { Document, visit } from 'yaml';
import { hasTerminalControls, unicodeEscaped } from '../render/terminal-safe.js';
import { UsageError } from './usage-error.js';

export const OUTPUT_FORMATS = ['text', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(raw: string | undefined): OutputFormat {
  const output = raw ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(output))
    throw new UsageError(`-o must be ${OUTPUT_FORMATS.join(', ').replace(/, (\w+)$/, ' or $1')}, not "${output}"`);
  return output as OutputFormat;
}

/** A JSON text as printed: the same value, terminal controls inside its strings written as `\uXXXX`. */
export function printableJson(json: string): string {
  return unicodeEscaped(json);
}

/**
 * A JSON text as YAML (long strings stay on one line, as in the JSON). A string holding a terminal
 * control is written double-quoted, the one YAML scalar style with escapes, and the control as `\uXXXX`.
 */
export function jsonToYaml(json: string): string {
  const doc = new Document(JSON.parse(json));
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasTerminalControls(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return unicodeEscaped(doc.toString({ lineWidth: 0 }));
}
