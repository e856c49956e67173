#!/usr/bin/env node
// The last step of `npm run build`: bundles the package's bin (src/cli/isvc-doctor.ts, which also
// runs `serve`) with esbuild over tsc's output, into dist/src/cli/isvc-doctor.js plus shared chunks
// in dist/src/bundle/ (code splitting keeps each subcommand and `serve` role loaded only when it
// runs). Why: Node spends most of a short CLI run resolving and compiling ~1,000 module files
// (@kubernetes/client-node alone 0.6 s); one bundle of them starts about twice as fast (docs/benchmarks.md).
// tsc's file-per-module output stays next to it (the tests, the bench and the scripts import it).
// Packages that read files next to their own modules at run time (__dirname: BullMQ, ioredis,
// msgpackr's optional native part) or that the playground's page needs stay external, loaded from
// node_modules as before. The chunks sit two folders below dist/, as every compiled module does, so
// paths resolved from import.meta.url (the shipped signature catalog) are the same.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

export const BUNDLE_EXTERNAL = ['bullmq', 'ioredis', 'msgpackr', '@slack/bolt', '@slack/web-api', '@slack/socket-mode', 'prom-client', 'playwright-core'];

export async function bundle() {
  rmSync('dist/src/bundle', { recursive: true, force: true }); // chunks of an earlier build
  const result = await build({
    entryPoints: { 'cli/isvc-doctor': 'src/cli/isvc-doctor.ts' },
    outdir: 'dist/src',
    chunkNames: 'bundle/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    minify: true,
    external: BUNDLE_EXTERNAL,
    // CommonJS dependencies inside an ES module bundle call require()
    banner: { js: "import { createRequire as __isvcDoctorRequire } from 'node:module'; const require = __isvcDoctorRequire(import.meta.url);" },
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(result.metafile.outputs).length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const files = await bundle();
  console.error(`bundle: dist/src/cli/isvc-doctor.js and ${files - 1} chunks in ${Math.round(performance.now() - started)} ms`);
}
