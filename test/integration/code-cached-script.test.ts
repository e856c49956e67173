/**
 * The bundled bin's code cache, across processes as the bin uses it (within one process V8 reuses
 * its own compilation and would take any cache): the first run that saves writes it, the next run
 * takes it, and a damaged, unwritable or missing cache never fails a run, it only compiles again.
 * The cache file is named after the bundle's id line, so another build never takes this one's;
 * other builds' files are removed once a week old.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '../support/ensure-built.js';

const root = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-code-cache-'));
const runner = path.join(root, 'run.mjs');
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  ensureBuilt();
  writeFileSync(
    runner,
    `import { runCodeCachedScript } from ${JSON.stringify(pathToFileURL(path.resolve('dist/src/cli/code-cached-script.js')).href)};
const [file, cacheDir] = process.argv.slice(2);
const script = runCodeCachedScript(file, cacheDir === '-' ? null : cacheDir, 'diagnose');
console.log(JSON.stringify({ cacheUsed: script.cacheUsed, answer: script.exports.answer(), url: script.exports.url }));
script.saveCache();
`,
  );
}, 180_000);

interface Run {
  cacheUsed: boolean;
  answer: number;
  url: string;
}

function run(file: string, cacheDir: string | null): Run {
  const r = spawnSync(process.execPath, [runner, file, cacheDir ?? '-'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Run;
}

function bundle(name: string, id: string | null, answer = 42): string {
  const file = path.join(root, name);
  const code = `"use strict";function helper(n){return n+1}exports.answer=()=>helper(${answer - 1});exports.url=__bundleUrl;`;
  writeFileSync(file, id === null ? code : `/* isvc-doctor bundle ${id} */\n${code}`);
  return file;
}

it('writes the cache after the first run and takes it on the next', () => {
  const file = bundle('a.cjs', 'aaaaaaaaaaaaaaaaaaaa');
  const cacheDir = path.join(root, 'cache-a');
  expect(run(file, cacheDir)).toEqual({ cacheUsed: false, answer: 42, url: pathToFileURL(file).href });
  expect(readdirSync(cacheDir)).toEqual([`aaaaaaaaaaaaaaaaaaaa-${process.version}-${process.arch}-diagnose.v8`]);
  expect(run(file, cacheDir)).toMatchObject({ cacheUsed: true, answer: 42 });
});

it('compiles again when the cache is damaged, and replaces it', () => {
  const file = bundle('b.cjs', 'bbbbbbbbbbbbbbbbbbbb');
  const cacheDir = path.join(root, 'cache-b');
  run(file, cacheDir);
  writeFileSync(path.join(cacheDir, readdirSync(cacheDir)[0]!), 'not a V8 code cache');
  expect(run(file, cacheDir)).toMatchObject({ cacheUsed: false, answer: 42 });
  expect(run(file, cacheDir)).toMatchObject({ cacheUsed: true, answer: 42 });
});

it('never gives one build the cache of another, and removes other builds\' caches once a week old', () => {
  const cacheDir = path.join(root, 'cache-c');
  run(bundle('c.cjs', 'cccccccccccccccccccc'), cacheDir);
  run(bundle('c2.cjs', 'c2c2c2c2c2c2c2c2c2c2'), cacheDir);
  const weekOld = new Date(Date.now() - 8 * 24 * 3600 * 1000);
  const cFile = readdirSync(cacheDir).find((n) => n.startsWith('cccc'))!;
  utimesSync(path.join(cacheDir, cFile), weekOld, weekOld);
  expect(run(bundle('c.cjs', 'dddddddddddddddddddd', 43), cacheDir)).toMatchObject({ cacheUsed: false, answer: 43 });
  expect(readdirSync(cacheDir).map((n) => n.slice(0, 20)).sort()).toEqual(['c2c2c2c2c2c2c2c2c2c2', 'dddddddddddddddddddd']);
});

it('runs without a cache when its folder cannot be written, there is none, or the bundle has no id', () => {
  const blocked = path.join(root, 'a-file');
  writeFileSync(blocked, '');
  expect(run(bundle('e.cjs', 'eeeeeeeeeeeeeeeeeeee'), path.join(blocked, 'cache'))).toMatchObject({ cacheUsed: false, answer: 42 });
  expect(run(bundle('f.cjs', 'ffffffffffffffffffff'), null)).toMatchObject({ cacheUsed: false, answer: 42 });
  const cacheDir = path.join(root, 'cache-g');
  mkdirSync(cacheDir);
  run(bundle('g.cjs', null), cacheDir);
  expect(readdirSync(cacheDir)).toEqual([]);
});
