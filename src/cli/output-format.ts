/** `-o text|json|yaml`: how a command prints its result (json and yaml: the same one object). */
import { stringify } from 'yaml';
import { UsageError } from './usage-error.js';

export const OUTPUT_FORMATS = ['text', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(raw: string | undefined): OutputFormat {
  const output = raw ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(output)) throw new UsageError(`-o must be ${OUTPUT_FORMATS.join(', ').replace(/, (\w+)$/, ' or $1')}, not "${output}"`);
  return output as OutputFormat;
}

/** A JSON text as YAML (long strings stay on one line, as in the JSON). */
export function jsonToYaml(json: string): string {
  return stringify(JSON.parse(json), { lineWidth: 0 });
}
