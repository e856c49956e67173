/**
 * Where the CLI keeps its caches (discovery hints, as kubectl keeps ~/.kube/cache; compiled code):
 * $XDG_CACHE_HOME/isvc-doctor, else ~/.cache/isvc-doctor; null without either (no cache). A function
 * of the environment it is given: config.ts passes the process's, and so does the bin, which needs
 * it before any other module loads.
 */
import path from 'node:path';

export function cliCacheDirOf(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'isvc-doctor');
  return env.HOME ? path.join(env.HOME, '.cache', 'isvc-doctor') : null;
}
