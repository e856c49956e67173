#!/usr/bin/env node
/**
 * The isvc-doctor executable as `npm run build` ships it (scripts/bundle.mjs bundles this file over
 * dist/src/cli/isvc-doctor.js, its subcommands in chunks loaded only when they run). Node keeps the
 * compiled code of every module loaded after `module.enableCompileCache()` in the CLI's cache
 * folder (`…/isvc-doctor/compile-cache/`), so a run after the first one skips compiling
 * @kubernetes/client-node and the diagnosis; the rest loads after that call, through import().
 */
import module from 'node:module';
import path from 'node:path';
import { cliCacheDirOf } from '../core/cli-cache-dir.js';
import { unsupportedNodeMessage } from './supported-node.js';

const refusal = unsupportedNodeMessage(process.version);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
const cacheDir = cliCacheDirOf(process.env);
if (cacheDir) module.enableCompileCache(path.join(cacheDir, 'compile-cache'));
const { runBin } = await import('./run-bin.js');
runBin(async () => (await import('./main.js')).main);
