#!/usr/bin/env node
// `npm run eval:blind [-- --verbose] [-- --only NAME]`: transpiles the code with esbuild (no type
// check, as `npm start` does), then runs scripts/blind-eval.ts on test/blind.
import { build } from 'esbuild';
import { cpSync } from 'node:fs';
import { fastBuild } from './fast-build.mjs';

await fastBuild();
await build({
  entryPoints: ['scripts/blind-eval.ts'],
  outdir: 'dist/scripts',
  outbase: 'scripts',
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
});
cpSync('playbooks/signatures', 'dist/playbooks/signatures', { recursive: true });
process.argv = [
  process.argv[0],
  new URL('../dist/scripts/blind-eval.js', import.meta.url).pathname,
  ...process.argv.slice(2),
];
await import('../dist/scripts/blind-eval.js');
