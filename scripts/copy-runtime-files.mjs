// After tsc: copy the plain-JavaScript modules the compiled benchmarks import; make the bin executable.
import { chmodSync, cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/test/support', { recursive: true });
cpSync('test/support/redis-process.mjs', 'dist/test/support/redis-process.mjs');
// the bin is executable, as npm makes it when it installs the package (for a PATH entry pointing here)
chmodSync('dist/src/cli/isvc-doctor.js', 0o755);
