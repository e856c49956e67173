#!/usr/bin/env node
// The last step of `npm run build`: bundles the package's bin with esbuild over tsc's output, in two
// forms (docs/architecture.md):
// - dist/src/cli/isvc-doctor.js (from src/cli/bundled-bin.ts) with shared chunks in dist/src/bundle/,
//   ES modules split so that each subcommand and `serve` role loads only when it runs;
// - dist/src/bundle/isvc-doctor.cjs, main.ts and everything it may load in one CommonJS file, which the
//   bin runs through a V8 code cache for the commands that read a cluster and end
//   (src/cli/code-cached-script.ts; Node 20 keeps no compiled ES module code between runs). Its first
//   line carries its content hash, which names the cache files. It must hold no import() (a script
//   run by node:vm has no module loader), so dynamic imports become require().
// Why: Node spends most of a short CLI run resolving and compiling ~1,000 module files
// (@kubernetes/client-node alone 0.6 s); bundled they start about twice as fast, from a code cache
// faster again (docs/benchmarks.md). tsc's file-per-module output stays next to them (the tests, the
// bench and the scripts import it; the ES module bundle imports nothing from it).
// Packages that read files next to their own modules at run time (__dirname: BullMQ, ioredis,
// msgpackr's optional native part) or that the playground's page needs stay external, loaded from
// node_modules as before. Both bundles sit two folders below dist/, as every compiled module does, so
// paths resolved from import.meta.url (the shipped signature catalog) are the same.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

export const BUNDLE_EXTERNAL = ['bullmq', 'ioredis', 'msgpackr', '@slack/bolt', '@slack/web-api', '@slack/socket-mode', 'prom-client', 'playwright-core'];
export const CODE_CACHED_BUNDLE = 'dist/src/bundle/isvc-doctor.cjs';

// node-fetch's fallback URL implementation, dead on Node >= 10 (scripts/bundle-stubs/whatwg-url.cjs);
// client-node's SOCKS proxy agent, loaded when one is made (scripts/bundle-stubs/socks-proxy-agent.cjs);
// optional packages that are not installed (scripts/bundle-stubs/absent-optional.cjs)
const ABSENT = './scripts/bundle-stubs/absent-optional.cjs';
const ALIAS = { 'whatwg-url': './scripts/bundle-stubs/whatwg-url.cjs', 'socks-proxy-agent': './scripts/bundle-stubs/socks-proxy-agent.cjs', encoding: ABSENT, bufferutil: ABSENT };

const COMMON = { bundle: true, platform: 'node', target: 'node20', minify: true, external: BUNDLE_EXTERNAL, alias: ALIAS, metafile: true, logLevel: 'warning' };

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
    banner: { js: "import { createRequire as __isvcDoctorRequire } from 'node:module'; const require = __isvcDoctorRequire(import.meta.url);" },
  });
  return Object.keys(result.metafile.outputs).length;
}

/**
 * esbuild leaves non-ASCII characters of regular expression literals as they are (the CLI's `[–—]`
 * for a dash a word processor made); one of them makes the whole 4 MB source a two-byte string,
 * slower to read and to scan. A \uXXXX escape of each UTF-16 unit means the same in string,
 * template and regular expression literals, identifiers and comments, except right after a backslash.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (char, at) => {
    if (code[at - 1] === '\\') throw new Error(`${CODE_CACHED_BUNDLE}: an escaped non-ASCII character at ${at}`);
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

async function oneScript() {
  await build({
    ...COMMON,
    entryPoints: ['src/cli/main.ts'],
    outfile: CODE_CACHED_BUNDLE,
    format: 'cjs',
    keepNames: true,
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__bundleUrl' }, // a parameter of code-cached-script.ts's wrapper
  });
  const code = asciiOnly(readFileSync(CODE_CACHED_BUNDLE, 'utf8'));
  if (/\bimport\(/.test(code)) throw new Error(`${CODE_CACHED_BUNDLE} holds an import(), which a node:vm script cannot run`);
  const id = createHash('sha256').update(code).digest('hex').slice(0, 20);
  writeFileSync(CODE_CACHED_BUNDLE, `/* isvc-doctor bundle ${id} */\n${code}`);
}

export async function bundle() {
  rmSync('dist/src/bundle', { recursive: true, force: true }); // chunks of an earlier build
  const files = await splitModules();
  await oneScript();
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const files = await bundle();
  console.error(`bundle: dist/src/cli/isvc-doctor.js and ${files - 1} chunks, ${CODE_CACHED_BUNDLE}, in ${Math.round(performance.now() - started)} ms`);
}
