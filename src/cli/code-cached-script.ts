/**
 * Runs a one-file CommonJS bundle through node:vm with a V8 code cache, so that a process after the
 * first one skips compiling it (Node 20 keeps no compiled ES module code between runs). The cache is
 * one file per bundle build (the id on the bundle's first line), Node version, architecture, V8 flags
 * and variant (a command's name: each compiles different functions), made after a run so that it
 * holds every function the run compiled, and written atomically; other builds' files go once they
 * are a week old. A missing, rejected or unwritable
 * cache costs only the time it would have saved; a bundle without an id line runs without one.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** The first line scripts/bundle.mjs writes: the bundle's content hash. */
const ID_LINE = /^\/\* isvc-doctor bundle ([0-9a-f]{16,64}) \*\/\n/;

/** The parameters the bundle's code sees; `__bundleUrl` stands for its import.meta.url. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __bundleUrl) {';

export interface CodeCachedScript<T> {
  exports: T;
  /** Whether V8 took the cache (false: none, or rejected). */
  cacheUsed: boolean;
  /** Writes the cache when the run had none or V8 rejected it; never throws. */
  saveCache(): void;
}

/** A short stable hash of a string (FNV-1a): tells V8 flag sets apart in the cache file's name. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

function cacheFileName(bundleId: string, variant: string, flags: readonly string[]): string {
  const flagsHash = flags.length ? `-${fnv1a(flags.join(' '))}` : '';
  return `${bundleId}-${process.version}-${process.arch}${flagsHash}-${variant.replace(/[^a-z0-9_-]/gi, '_')}.v8`;
}

function readOrUndefined(file: string | undefined): Buffer | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Other builds' caches older than this are removed (two installs of different versions keep theirs while both are used). */
const STALE_AFTER_MS = 7 * 24 * 3600 * 1000;

function removeStale(dir: string, bundleId: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!name.startsWith(`${bundleId}-`) && Date.now() - statSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { force: true });
  }
}

/** Writes `data` as `file` (a temporary file renamed over it) and removes other builds' old caches; never throws. */
function writeCache(dir: string, file: string, bundleId: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    removeStale(dir, bundleId);
  } catch {
    // a read-only or full disk, or another process removing the same file: the next run compiles again
  }
}

/**
 * Runs `bundleFile` (CommonJS, no `import()`) with the cache kept in `cacheDir` (null: no cache).
 * `flags`: the Node options of the process (V8 refuses a cache made under other V8 flags, so each
 * set gets its own file instead of rewriting one).
 */
export function runCodeCachedScript<T>(bundleFile: string, cacheDir: string | null, variant: string, flags: readonly string[] = process.execArgv): CodeCachedScript<T> {
  const bytes = readFileSync(bundleFile);
  // the build escapes every non-ASCII character: read as one byte a character, without decoding UTF-8
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const bundleId = ID_LINE.exec(source)?.[1];
  const cacheFile = bundleId && cacheDir ? path.join(cacheDir, cacheFileName(bundleId, variant, flags)) : undefined;
  const cachedData = readOrUndefined(cacheFile);
  const script = new vm.Script(`${WRAPPER_HEAD}${source}\n})`, { filename: bundleFile, cachedData });
  const cacheUsed = cachedData !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile), pathToFileURL(bundleFile).href);
  return {
    exports: module.exports,
    cacheUsed,
    saveCache: () => {
      if (cacheUsed || !cacheFile || !cacheDir || !bundleId) return;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return;
      }
      writeCache(cacheDir, cacheFile, bundleId, data);
    },
  };
}
