/**
 * Loading a team's signature file: each problem is one line naming the file, the entry and the
 * field; the test runner reports a sample its pattern misses and an entry consulted before it that
 * takes its sample.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSignatureFile, signatureCatalog } from '../../../src/signatures/load-signatures.js';
import { SignatureError } from '../../../src/signatures/signature-error.js';
import { testSignatures } from '../../../src/signatures/test-signatures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-signatures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(text: string): string {
  n += 1;
  const f = path.join(dir, `team-${n}.yaml`);
  writeFileSync(f, text);
  return f;
}

const ENTRY = `- id: cuda-oom-team
  where: model-log
  pattern: 'RuntimeError: CUDA error: out of memory'
  code: MODEL_LOAD_FAILED
  title: The GPU has no memory left for the model
  next: 'kubectl edit inferenceservice {name} -n {namespace}: lower {field:resources}'
  sample: 'RuntimeError: CUDA error: out of memory'
`;

function problem(text: string): string {
  const f = file(text);
  try {
    loadSignatureFile(f);
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message.replace(f, 'FILE');
  }
  throw new Error('loaded a bad file');
}

describe('a signature file', () => {
  it('loads a valid entry with its defaults', () => {
    const [entry] = loadSignatureFile(file(`signatures:\n${ENTRY}`));
    expect(entry).toMatchObject({
      id: 'cuda-oom-team',
      where: 'model-log',
      code: 'MODEL_LOAD_FAILED',
      ignoreCase: false,
      lines: 1,
      also: [],
    });
    expect(entry!.regex.test('RuntimeError: CUDA error: out of memory')).toBe(true);
  });

  it.each([
    [
      'a pattern that is not a regular expression',
      ENTRY.replace("'RuntimeError: CUDA error: out of memory'\n  code", "'(unclosed'\n  code"),
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): pattern: invalid regular expression: /,
    ],
    [
      'an unknown code',
      ENTRY.replace('MODEL_LOAD_FAILED', 'GPU_ON_FIRE'),
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): code: unknown finding code "GPU_ON_FIRE"$/,
    ],
    [
      'an error code without a next step',
      ENTRY.replace(/ {2}next: .*\n/, ''),
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): next: required for an error code \(MODEL_LOAD_FAILED\)$/,
    ],
    [
      'an unknown placeholder',
      ENTRY.replace('{name}', '{isvc}'),
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): next: unknown placeholder \{isvc\}/,
    ],
    [
      'an unknown place to look',
      ENTRY.replace('model-log', 'dmesg'),
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): where: Invalid enum value/,
    ],
    [
      'a version range that is not one',
      `${ENTRY}  versions: {kserve: 'soon'}\n`,
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): versions.kserve: "soon" is not a version range/,
    ],
    [
      'an unknown key',
      `${ENTRY}  severity: high\n`,
      /^signatures: FILE: entry 1 \(id "cuda-oom-team"\): \(entry\): Unrecognized key\(s\) in object: 'severity'$/,
    ],
  ])('with %s names the file, the entry and the field', (_what, entry, message) => {
    expect(problem(`signatures:\n${entry}`)).toMatch(message);
  });

  it('that is not YAML, or not a list of entries, says so on one line', () => {
    expect(problem('signatures: [\n')).toMatch(/^signatures: FILE:\d+: invalid YAML: /);
    expect(problem('rules: []\n')).toMatch(/^signatures: FILE: signatures: Required$/);
  });

  it('may not reuse a shipped entry id', () => {
    const f = file(`signatures:\n${ENTRY.replace('cuda-oom-team', 'tfserving-no-version-folder')}`);
    expect(() => signatureCatalog([f])).toThrow(
      `signatures: ${f}: entry id "tfserving-no-version-folder": id: already used in ${path.resolve('playbooks/signatures/model-servers.yaml')}`,
    );
  });

  it('is consulted before the shipped entries, and its samples are tested against the whole catalog', () => {
    const missing = file(
      `signatures:\n${ENTRY.replace("sample: 'RuntimeError: CUDA error: out of memory'", "sample: 'CUDA error: out of memory'")}`,
    );
    const catalog = signatureCatalog([missing]);
    expect(catalog.entries[0]!.id).toBe('cuda-oom-team');
    expect(testSignatures(catalog, catalog.entries.slice(0, 1))[0]!.problems).toEqual([
      'sample does not match pattern: "CUDA error: out of memory"',
    ]);

    // a team entry whose sample a shipped entry takes first is consulted first, so it wins: no problem;
    // a second team entry shadowed by the first one is reported
    const shadowed = file(`signatures:\n${ENTRY}${ENTRY.replace('cuda-oom-team', 'cuda-oom-again')}`);
    const both = signatureCatalog([shadowed]);
    expect(testSignatures(both, both.entries.slice(0, 2)).map((r) => r.problems)).toEqual([
      [],
      [expect.stringContaining('sample is taken first by entry "cuda-oom-team"')],
    ]);
  });
});
