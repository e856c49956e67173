// After a build (tsc, or esbuild's fast build for `npm start`): copy the files the compiled code reads
// at run time that the compilers do not emit: the plain JavaScript modules the compiled benchmarks
// import, and the shipped signature catalog (YAML, plus its precompiled JSON form, which the
// compiled code writes: src/signatures/precompiled-signatures.ts); and make the bin executable, as
// npm makes it when it installs the package (for a PATH entry pointing here).
import { chmodSync, cpSync, mkdirSync } from 'node:fs';

export async function copyRuntimeFiles() {
  mkdirSync('dist/test/support', { recursive: true });
  cpSync('test/support/redis-process.mjs', 'dist/test/support/redis-process.mjs');
  cpSync('playbooks/signatures', 'dist/playbooks/signatures', { recursive: true });
  const { writePrecompiledSignatures } = await import(
    new URL('../dist/src/signatures/write-precompiled-signatures.js', import.meta.url).href
  );
  writePrecompiledSignatures('dist/playbooks/signatures');
  chmodSync('dist/src/cli/isvc-doctor.js', 0o755);
}

if (import.meta.url === `file://${process.argv[1]}`) await copyRuntimeFiles();
