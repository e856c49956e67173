// After a build (tsc, or esbuild's fast build for `npm start`): copy the files the compiled code reads
// at run time that the compilers do not emit: the plain JavaScript modules the compiled benchmarks
// import, and the shipped signature catalog (YAML); and make the bin executable, as npm makes it when
// it installs the package (for a PATH entry pointing here).
import { chmodSync, cpSync, mkdirSync } from 'node:fs';

export function copyRuntimeFiles() {
  mkdirSync('dist/test/support', { recursive: true });
  cpSync('test/support/redis-process.mjs', 'dist/test/support/redis-process.mjs');
  cpSync('playbooks/signatures', 'dist/playbooks/signatures', { recursive: true });
  chmodSync('dist/src/cli/isvc-doctor.js', 0o755);
}

if (import.meta.url === `file://${process.argv[1]}`) copyRuntimeFiles();
