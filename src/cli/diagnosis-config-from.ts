import path from 'node:path';
import type { DiagnosisConfig, LinkTemplate } from '../config.js';
import { parseMemory } from '../core/memory-quantity.js';
import { UsageError } from './usage-error.js';

/** The `diagnosis:` part of a config file (or of a snapshot's config.yaml), and `remediation.maxMemory` (the cap of an offered memory raise). */
export function diagnosisConfigFrom(raw: unknown, file: string): Partial<DiagnosisConfig> {
  const maxMemory = ((raw as { remediation?: { maxMemory?: unknown } } | null)?.remediation ?? undefined)?.maxMemory;
  const cap: Partial<DiagnosisConfig> = {};
  if (maxMemory !== undefined) {
    const bytes = typeof maxMemory === 'string' ? parseMemory(maxMemory) : undefined;
    if (bytes === undefined) throw new UsageError(`${file}: remediation.maxMemory: expected a memory quantity like 16Gi`);
    cap.maxMemoryBytes = bytes;
  }
  const section = (raw as { diagnosis?: unknown } | null)?.diagnosis;
  if (section === undefined || section === null) return cap;
  if (typeof section !== 'object') throw new UsageError(`${file}: diagnosis: expected a mapping`);
  const { links, knativeNamespace, signatures } = section as { links?: unknown; knativeNamespace?: unknown; signatures?: unknown };
  const out: Partial<DiagnosisConfig> = { ...cap };
  if (links !== undefined) {
    if (!Array.isArray(links) || !links.every((l) => l && typeof l.name === 'string' && typeof l.url === 'string')) {
      throw new UsageError(`${file}: diagnosis.links: expected a list of {name, url}`);
    }
    out.links = links as LinkTemplate[];
  }
  if (knativeNamespace !== undefined) {
    if (typeof knativeNamespace !== 'string') throw new UsageError(`${file}: diagnosis.knativeNamespace: expected a string`);
    out.knativeNamespace = knativeNamespace;
  }
  if (signatures !== undefined) {
    if (!Array.isArray(signatures) || !signatures.every((f) => typeof f === 'string' && f !== '')) throw new UsageError(`${file}: diagnosis.signatures: expected a list of file paths`);
    out.signatureFiles = (signatures as string[]).map((f) => path.resolve(path.dirname(path.resolve(file)), f));
  }
  return out;
}
