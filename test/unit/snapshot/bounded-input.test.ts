/**
 * Snapshots read as a cluster would serve them: logs bounded (head and tail, like limitBytes and
 * tailLines), YAML aliases capped, oversize YAML refused; every refusal a SnapshotError whose one
 * line names the file.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSnapshot, MAX_YAML_BYTES, SnapshotError } from '../../../src/snapshot/load-snapshot.js';
import { readLogBounded } from '../../../src/snapshot/read-container-logs.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterAll(removeTempDirs);

const POD =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: [{name: c, image: x}]}\n';

async function snapshotWith(files: Record<string, string>): Promise<string> {
  const dir = tempDir('bounded-');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

async function refusal(dir: string): Promise<string> {
  const error = await loadSnapshot(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SnapshotError);
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
}

describe('logs', () => {
  it('keeps the head and the tail of a log larger than its bounds, whole lines, and says how much it left out', async () => {
    const dir = tempDir('log-');
    const file = path.join(dir, 'c.log');
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${String(i).padStart(5, '0')} ${'x'.repeat(40)}`);
    await writeFile(file, `${lines.join('\n')}\n`);
    const text = await readLogBounded(file, 4096, 8192);
    expect(text.length).toBeLessThan(4096 + 8192 + 200);
    const out = text.split('\n');
    expect(out[0]).toBe(lines[0]);
    expect(out.at(-2)).toBe(lines.at(-1));
    expect(text).toMatch(/\[isvc-doctor: \d+ bytes of this \d+-byte log are not read/);
    expect(out.filter((l) => l.startsWith('line ')).every((l) => lines.includes(l))).toBe(true);
  });

  it('reads a sparse 2 GB log as its head and tail (never the whole file)', async () => {
    const dir = await snapshotWith({ 'objects.yaml': POD });
    const file = path.join(dir, 'logs', 'ns', 'p', 'c.log');
    await mkdir(path.dirname(file), { recursive: true });
    const handle = await open(file, 'w');
    await handle.write('Starting the model server\n', 0);
    await handle.write('ERROR model file not found: /mnt/models/model.bst\n', 2 * 1024 ** 3);
    await handle.close();
    const snapshot = await loadSnapshot(dir);
    const log = snapshot.logs.get('ns/p/c')!;
    expect(log.length).toBeLessThan(6 * 1024 * 1024);
    expect(log.startsWith('Starting the model server\n')).toBe(true);
    expect(log.endsWith('ERROR model file not found: /mnt/models/model.bst\n')).toBe(true);
  });
});

describe('YAML', () => {
  it('refuses an alias bomb as bad input naming the file', async () => {
    const levels = [
      'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
    ];
    const dir = await snapshotWith({
      'objects.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`,
    });
    expect(await refusal(dir)).toMatch(/objects\.yaml: YAML aliases expand too far/);
  });

  it.each([
    [
      'block mappings',
      (depth: number) => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i + 1)}a:`).join('\n'),
    ],
    ['flow sequences', (depth: number) => `  ${'['.repeat(depth)}${']'.repeat(depth)}`],
  ])('refuses YAML nested too deeply (%s) as bad input naming the file, not a stack overflow', async (_shape, nest) => {
    const dir = await snapshotWith({
      'objects.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata:\n${nest(3000)}\n`,
    });
    const message = await refusal(dir);
    expect(message).toMatch(/objects\.yaml(:\d+)?: YAML nested too deeply to read/);
    expect(message).not.toMatch(/call stack/i);
  });

  it('refuses a YAML file over the size a snapshot may have, before reading it', async () => {
    const dir = await snapshotWith({ 'objects.yaml': POD });
    const handle = await open(path.join(dir, 'objects.yaml'), 'r+');
    await handle.truncate(MAX_YAML_BYTES + 1);
    await handle.close();
    expect(await refusal(dir)).toMatch(/objects\.yaml: too large to read/);
  });
});
