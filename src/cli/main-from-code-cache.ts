/**
 * The bundled bin's `main` for the commands of code-cached-commands.ts: from the one-file CommonJS
 * bundle next to the bin's chunks (dist/src/bundle/isvc-doctor.cjs), run through the V8 code cache in
 * the CLI's cache folder (code-cached-script.ts). Undefined when there is no bundle to run.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCacheDirOf } from '../core/cli-cache-dir.js';
import { runCodeCachedScript, type CodeCachedScript } from './code-cached-script.js';
import type { Main } from './run-bin.js';

const BUNDLE = fileURLToPath(new URL('../bundle/isvc-doctor.cjs', import.meta.url));

export function mainFromCodeCache(command: string): CodeCachedScript<{ main: Main }> | undefined {
  const cacheDir = cliCacheDirOf(process.env);
  try {
    const flags = process.env.NODE_OPTIONS ? [...process.execArgv, process.env.NODE_OPTIONS] : process.execArgv;
    return runCodeCachedScript(BUNDLE, cacheDir && path.join(cacheDir, 'code-cache'), command, flags);
  } catch {
    return undefined; // no bundle next to the bin
  }
}
