/** Every playbook file is registered once in playbooks/index.ts, with an id equal to its file name. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { isFindingCode } from '../../src/findings/catalog.js';

describe('playbook registry', () => {
  const files = readdirSync(path.resolve('playbooks'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts')
    .map((f) => f.replace(/\.ts$/, ''));

  it('registers every playbook file, each once', () => {
    expect(ALL_PLAYBOOKS.map((p) => p.id).sort()).toEqual(files.sort());
  });

  it('declares only catalog codes', () => {
    for (const p of ALL_PLAYBOOKS) for (const code of p.emits) expect(isFindingCode(code)).toBe(true);
  });

  it("has a row in README.md's table whose codes are the playbook's emits", () => {
    const readme = readFileSync('README.md', 'utf8');
    const rows = new Map(
      [...readme.matchAll(/^\| ([a-z-]+) \| .* \| ([A-Z_, ]+) \|$/gm)].map((m) => [m[1], m[2]!.split(', ').sort()]),
    );
    const stale = ALL_PLAYBOOKS.filter((p) => rows.get(p.id)?.join() !== [...p.emits].sort().join()).map(
      (p) => `${p.id}: README says ${rows.get(p.id)?.join(', ') ?? 'nothing'}, it emits ${p.emits.join(', ')}`,
    );
    expect(stale).toEqual([]);
  });
});
