/**
 * CONTRIBUTING.md's recipes hold: every file or folder it names exists; a playbook is its file, one
 * registry line (test/unit/playbook-registry.test.ts) and its test beside it (playbooks/<id>.test.ts,
 * which runs that playbook); every Slack listener has its unit test beside it; the build leaves the
 * tests out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';

const contributing = readFileSync('CONTRIBUTING.md', 'utf8');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe('CONTRIBUTING.md', () => {
  it('names only files and folders that exist', () => {
    const named = [...contributing.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      .filter((p) => /^(src|test|playbooks|handlers|deploy|docs|scripts)\//.test(p) || p === 'biome.jsonc')
      .filter((p) => !/[<*…]/.test(p));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((p) => !existsSync(p))).toEqual([]);
  });

  it("says a playbook's test sits beside it, and a listener's", () => {
    expect(contributing).toContain('`playbooks/<id>.test.ts`');
    expect(contributing).toContain('`handlers/<folder>/<name>.test.ts`');
  });

  it('has a test beside every playbook, which runs that playbook', () => {
    const missing: string[] = [];
    const notRun: string[] = [];
    for (const { id } of ALL_PLAYBOOKS) {
      const test = `playbooks/${id}.test.ts`;
      if (!existsSync(test)) {
        missing.push(test);
        continue;
      }
      const text = readFileSync(test, 'utf8');
      if (!text.includes(`from './${id}.js'`) || !/runPlaybook\(\s*\w+,/.test(text)) notRun.push(test);
    }
    expect(missing).toEqual([]);
    expect(notRun).toEqual([]);
  });

  it('has a unit test beside every Slack listener', () => {
    // a folder's index.ts only registers its listeners: handlers/index.test.ts checks every registration
    const listeners = files('handlers').filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/(^|\/)(index|handler-deps)\.ts$/.test(f),
    );
    expect(listeners.length).toBeGreaterThan(5);
    expect(listeners.filter((f) => !existsSync(f.replace(/\.ts$/, '.test.ts')))).toEqual([]);
  });

  it('leaves the tests beside units out of the build', () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.build.json',
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    const built = (parsed?.fileNames ?? []).map((f) => path.relative(process.cwd(), f));
    expect(built).toContain('playbooks/image-pull.ts');
    expect(built.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
  });
});
