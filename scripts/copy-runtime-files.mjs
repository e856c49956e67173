// After tsc: copy the plain-JavaScript modules the compiled benchmarks import.
import { cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/test/support', { recursive: true });
cpSync('test/support/redis-process.mjs', 'dist/test/support/redis-process.mjs');
