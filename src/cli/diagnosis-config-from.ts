import path from 'node:path';
import { fileConfigSchema, type DiagnosisConfig, type LinkTemplate } from '../config.js';
import { parseMemory } from '../core/memory-quantity.js';
import { UsageError } from './usage-error.js';

/**
 * The `diagnosis:` part of a config file (or of a snapshot's config.yaml), and `remediation.maxMemory`
 * (the cap of an offered memory raise). The whole file is checked as `serve` checks it (unknown keys,
 * wrong types), so a config that `serve` would refuse is bad input here too: one line naming the
 * file and the key.
 */
export function diagnosisConfigFrom(raw: unknown, file: string): Partial<DiagnosisConfig> {
  if (raw !== null && raw !== undefined && (typeof raw !== 'object' || Array.isArray(raw)))
    throw new UsageError(`${file}: expected a mapping of config keys (diagnosis:, remediation:, ...)`);
  const checked = fileConfigSchema.safeParse(raw ?? {});
  if (!checked.success) throw new UsageError(`${file}: ${describeFirstIssue(checked.error.issues[0]!)}`);
  const maxMemory = ((raw as { remediation?: { maxMemory?: unknown } } | null)?.remediation ?? undefined)?.maxMemory;
  const cap: Partial<DiagnosisConfig> = {};
  if (maxMemory !== undefined) {
    const bytes = typeof maxMemory === 'string' ? parseMemory(maxMemory) : undefined;
    if (bytes === undefined)
      throw new UsageError(`${file}: remediation.maxMemory: expected a memory quantity like 16Gi`);
    cap.maxMemoryBytes = bytes;
  }
  const section = (raw as { diagnosis?: unknown } | null)?.diagnosis;
  if (section === undefined || section === null) return cap;
  if (typeof section !== 'object') throw new UsageError(`${file}: diagnosis: expected a mapping`);
  const { links, knativeNamespace, signatures } = section as {
    links?: unknown;
    knativeNamespace?: unknown;
    signatures?: unknown;
  };
  const out: Partial<DiagnosisConfig> = { ...cap };
  if (links !== undefined) {
    if (!Array.isArray(links) || !links.every((l) => l && typeof l.name === 'string' && typeof l.url === 'string')) {
      throw new UsageError(`${file}: diagnosis.links: expected a list of {name, url}`);
    }
    out.links = links as LinkTemplate[];
  }
  if (knativeNamespace !== undefined) {
    if (typeof knativeNamespace !== 'string')
      throw new UsageError(`${file}: diagnosis.knativeNamespace: expected a string`);
    out.knativeNamespace = knativeNamespace;
  }
  if (signatures !== undefined) {
    if (!Array.isArray(signatures) || !signatures.every((f) => typeof f === 'string' && f !== ''))
      throw new UsageError(`${file}: diagnosis.signatures: expected a list of file paths`);
    out.signatureFiles = (signatures as string[]).map((f) => path.resolve(path.dirname(path.resolve(file)), f));
  }
  return out;
}

/** `key.path: what is wrong`, one line. */
function describeFirstIssue(issue: {
  path: (string | number)[];
  code: string;
  message: string;
  keys?: string[];
  expected?: unknown;
  received?: unknown;
}): string {
  const key =
    issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : p))
      .join('.')
      .replace(/\.\[/g, '[') || '(top level)';
  if (issue.code === 'unrecognized_keys') return `${key}: unknown key(s) ${(issue.keys ?? []).join(', ')}`;
  if (issue.code === 'invalid_type') return `${key}: expected ${String(issue.expected)}, got ${String(issue.received)}`;
  return `${key}: ${issue.message.split('\n')[0]}`;
}
