/** logs/<ns>/<pod>/<container>[.previous].log → a map keyed `ns/pod/container` or `ns/pod/container#previous`. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export async function readContainerLogs(logsDir: string): Promise<Map<string, string>> {
  const logs = new Map<string, string>();
  for (const namespace of await subfolders(logsDir)) {
    for (const pod of await subfolders(path.join(logsDir, namespace))) {
      const podDir = path.join(logsDir, namespace, pod);
      for (const entry of await readdir(podDir, { withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.log')) continue;
        const base = entry.name.slice(0, -'.log'.length);
        const previous = base.endsWith('.previous');
        const container = previous ? base.slice(0, -'.previous'.length) : base;
        const key = `${namespace}/${pod}/${container}${previous ? '#previous' : ''}`;
        logs.set(key, await readFile(path.join(podDir, entry.name), 'utf8'));
      }
    }
  }
  return logs;
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    return [];
  }
}
