#!/usr/bin/env node
/**
 * The isvc-doctor executable as `npm run build` ships it (scripts/bundle.mjs bundles this file over
 * dist/src/cli/isvc-doctor.js). The commands of code-cached-commands.ts run from a one-file
 * CommonJS bundle of main.ts through a V8 code cache made by the first run that did its work
 * (main-from-code-cache.ts): most of a short run is otherwise spent compiling
 * @kubernetes/client-node. Everything else (help, serve, simulate, completion), and any run whose
 * bundle cannot be read, runs main.ts from the ES module bundle, whose subcommands load lazily.
 * Either way the same main runs; the choice only changes how fast it starts.
 */
import { usesCodeCache } from './code-cached-commands.js';
import type { CodeCachedScript } from './code-cached-script.js';
import { mainFromCodeCache } from './main-from-code-cache.js';
import { runBin, type Main } from './run-bin.js';

let script: CodeCachedScript<{ main: Main }> | undefined;

async function load(args: string[]): Promise<Main> {
  if (usesCodeCache(args)) script = mainFromCodeCache(args[0]!);
  return script?.exports.main ?? (await import('./main.js')).main;
}

// exit statuses 0 and 1 mean the command did its work (2-4: it stopped early and compiled little)
runBin(load, (code) => {
  if (code <= 1) script?.saveCache();
});
