#!/usr/bin/env node
// The last step of `npm run build`: bundles the package's bin with esbuild over tsc's output
// (docs/architecture.md): dist/src/cli/isvc-doctor.js (from src/cli/bundled-bin.ts) with shared
// chunks in dist/src/bundle/, ES modules split so that each subcommand and `serve` role loads only
// when it runs. The bin turns on Node's compile cache before it loads the rest.
// Why: Node spends most of a short CLI run resolving and compiling ~1,000 module files
// (@kubernetes/client-node most of them); bundled, and compiled once into the cache, they start
// several times faster (docs/benchmarks.md). tsc's file-per-module output stays next to them (the
// tests, the bench and the scripts import it; the bundle imports nothing from it).
// Packages that read files next to their own modules at run time (__dirname: BullMQ, ioredis,
// msgpackr's optional native part) or that the playground's page needs stay external, loaded from
// node_modules as before. The bundle sits two folders below dist/, as every compiled module does, so
// paths resolved from import.meta.url (the shipped signature catalog) are the same.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

export const BUNDLE_EXTERNAL = [
  'bullmq',
  'ioredis',
  'msgpackr',
  '@slack/bolt',
  '@slack/web-api',
  '@slack/socket-mode',
  'prom-client',
  'playwright-core',
];

// client-node's SOCKS proxy agent, loaded when one is made (scripts/bundle-stubs/socks-proxy-agent.cjs);
// optional packages that are not installed (scripts/bundle-stubs/absent-optional.cjs)
const ABSENT = './scripts/bundle-stubs/absent-optional.cjs';
const ALIAS = {
  'socks-proxy-agent': './scripts/bundle-stubs/socks-proxy-agent.cjs',
  bufferutil: ABSENT,
};

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  minify: true,
  external: BUNDLE_EXTERNAL,
  alias: ALIAS,
  metafile: true,
  logLevel: 'warning',
};

async function splitModules() {
  const result = await build({
    ...COMMON,
    entryPoints: { 'cli/isvc-doctor': 'src/cli/bundled-bin.ts' },
    outdir: 'dist/src',
    chunkNames: 'bundle/[name]-[hash]',
    splitting: true,
    format: 'esm',
    keepNames: true,
    // CommonJS dependencies inside an ES module bundle call require()
    banner: {
      js: "import { createRequire as __isvcDoctorRequire } from 'node:module'; const require = __isvcDoctorRequire(import.meta.url);",
    },
  });
  return Object.keys(result.metafile.outputs).length;
}

export async function bundle() {
  rmSync('dist/src/bundle', { recursive: true, force: true }); // chunks of an earlier build
  return splitModules();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const files = await bundle();
  console.error(
    `bundle: dist/src/cli/isvc-doctor.js and ${files - 1} chunks in ${Math.round(performance.now() - started)} ms`,
  );
}
