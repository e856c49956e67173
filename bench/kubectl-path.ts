/**
 * The kubectl the runbooks run: $KUBECTL, else `kubectl` from PATH. When that is the Google Cloud
 * SDK's dispatcher (it asks the server for /version on every command, then runs a versioned
 * kubectl), the plain versioned binary next to it is used instead: a faster anchor, fewer requests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

let resolved: string | undefined;

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

function plainBesideDispatcher(): string | null {
  const version = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const client = (
    JSON.parse(version.stdout || '{}') as { clientVersion?: { gitVersion?: string; major?: string; minor?: string } }
  ).clientVersion;
  if (!client?.gitVersion?.includes('dispatcher')) return null;
  const found = onPath('kubectl');
  if (!found) return null;
  const plain = path.join(
    path.dirname(realpathSync(found)),
    `kubectl.${client.major}.${String(client.minor).replace(/\D+$/, '')}`,
  );
  return existsSync(plain) ? plain : null;
}

export function kubectlPath(): string {
  resolved ??= process.env.KUBECTL ?? plainBesideDispatcher() ?? 'kubectl';
  return resolved;
}
