/**
 * The CLI's discovery hints on disk (one small JSON file per API server under the user's cache
 * folder, like kubectl's ~/.kube/cache/discovery): the next `diagnose` sends its first wave of reads
 * at once instead of waiting for discovery first. A hint is checked against a fresh discovery sent
 * in the same wave (src/kube/cluster-reader.ts), unless it is as recent as an answer the process
 * would remember itself (five minutes, as the bot goes by its own), so an older file never changes
 * a diagnosis.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DiscoveryHints, ServedGroups } from './served-groups.js';

/** kubectl keeps its discovery cache this long. */
const TTL_MS = 6 * 60 * 60_000;

interface HintFile {
  server: string;
  at: number;
  versions: Record<string, string[]>;
}

export function diskDiscoveryHints(dir: string, now: () => number = Date.now): DiscoveryHints {
  const fileOf = (cluster: string) =>
    path.join(dir, `${createHash('sha256').update(cluster).digest('hex').slice(0, 24)}.json`);
  return {
    read(cluster) {
      try {
        const hint = JSON.parse(readFileSync(fileOf(cluster), 'utf8')) as HintFile;
        if (
          hint.server !== cluster ||
          typeof hint.at !== 'number' ||
          now() - hint.at > TTL_MS ||
          !hint.versions ||
          typeof hint.versions !== 'object'
        )
          return undefined;
        const versions = new Map<string, readonly string[]>();
        for (const [group, list] of Object.entries(hint.versions))
          if (Array.isArray(list) && list.every((v) => typeof v === 'string')) versions.set(group, list);
        return { versions, answeredAt: hint.at };
      } catch {
        return undefined;
      }
    },
    write(cluster, groups: ServedGroups) {
      try {
        mkdirSync(dir, { recursive: true });
        const file = fileOf(cluster);
        const body: HintFile = {
          server: cluster,
          at: now(),
          versions: Object.fromEntries(groups.versions) as Record<string, string[]>,
        };
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify(body));
        renameSync(temp, file);
      } catch {
        // a cache that cannot be written only costs the next run a wave
      }
    },
  };
}
