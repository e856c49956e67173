#!/usr/bin/env node
// Transpiles src/, playbooks/ and handlers/ to dist/ with esbuild (no type check), file by file, in
// the layout `npm run build` (tsc) produces. `npm start` uses it so that the playground starts in
// seconds on a fresh clone; `npm run build` and `npm run typecheck` remain the checked build.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { copyRuntimeFiles } from './copy-runtime-files.mjs';

function typescriptFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return typescriptFiles(full);
    // a unit's test beside it (x.test.ts) is not part of the build
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

export async function fastBuild() {
  const entryPoints = ['src', 'playbooks', 'handlers'].flatMap(typescriptFiles);
  await build({
    entryPoints,
    outdir: 'dist',
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  await copyRuntimeFiles();
  return entryPoints.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const count = await fastBuild();
  console.error(`fast-build: ${count} files in ${Math.round(performance.now() - started)} ms`);
}
