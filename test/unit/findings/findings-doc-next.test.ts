/**
 * docs/findings.md as a person reads it: every error code listed in its table has a section with a
 * non-empty "Next step", and every code a shipped signature names is listed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { shippedSignatures } from '../../../src/signatures/load-signatures.js';

const doc = readFileSync('docs/findings.md', 'utf8');
const rows = [...doc.matchAll(/^\| \d+ \| \[`([A-Z_]+)`\]\([^)]*\) \| (error|warning|info) \|/gm)].map((m) => ({
  code: m[1]!,
  severity: m[2]!,
}));

function nextStepOf(code: string): string | undefined {
  const section = new RegExp(`^## ${code}\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(doc)?.[1] ?? '';
  return /^- Next step: `(.+)`$/m.exec(section)?.[1];
}

describe('docs/findings.md', () => {
  it('lists the codes', () => {
    expect(rows.length).toBeGreaterThan(30);
  });

  it.each(rows.filter((r) => r.severity === 'error').map((r) => [r.code]))('gives %s a next step', (code) => {
    expect({ code, next: (nextStepOf(code) ?? '').length > 10 }).toEqual({ code, next: true });
  });

  it('lists every code a shipped signature names', () => {
    const listed = new Set(rows.map((r) => r.code));
    const named = shippedSignatures().entries.flatMap((e) => [...(e.code ? [e.code] : []), ...e.also]);
    expect([...new Set(named)].filter((c) => !listed.has(c))).toEqual([]);
  });
});
