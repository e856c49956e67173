/**
 * `npm run docs:findings`: writes docs/findings.md from the finding catalog. `findingsDoc()` is what
 * the file must hold (test/unit/findings/findings-doc.test.ts compares).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALL_PLAYBOOKS } from '../playbooks/index.js';
import { RUNNER_CODES } from '../src/diagnosis/run-diagnosis.js';
import type { FindingCode } from '../src/findings/catalog.js';
import { renderFindingsDoc } from '../src/findings/findings-doc.js';

export const FINDINGS_DOC = 'docs/findings.md';

export function findingsDoc(): string {
  const emitters = new Map<FindingCode, string[]>();
  const add = (code: FindingCode, by: string) => emitters.set(code, [...(emitters.get(code) ?? []), by]);
  for (const code of RUNNER_CODES) add(code, 'the runner');
  for (const p of ALL_PLAYBOOKS) for (const code of p.emits) add(code, `playbooks/${p.id}.ts`);
  return renderFindingsDoc(emitters);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  writeFileSync(FINDINGS_DOC, findingsDoc());
  process.stdout.write(`wrote ${FINDINGS_DOC}\n`);
}
