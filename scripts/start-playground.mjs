#!/usr/bin/env node
// `npm start`: transpiles the sources (esbuild, well under a second; `npm run build` is the
// type-checked build) and runs `isvc-doctor playground` with the arguments given after `--`.
import { fastBuild } from './fast-build.mjs';

await fastBuild();
const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(['playground', ...process.argv.slice(2)]);
