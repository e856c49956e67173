/** A child process that prints `listening on URL` once it serves (simulate, serve, the bare HMAC server). */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ListeningProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Every child still running, so that an interrupted bench leaves none behind. */
const live = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
}

export async function startListening(
  label: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<ListeningProcess> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    if (err.length > 4_000_000) err = err.slice(-2_000_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} did not start within ${timeoutMs / 1000} s: ${err.slice(-400)}`)),
      timeoutMs,
    );
    child.once('error', (error) => reject(new Error(`cannot start ${label}: ${error.message}`)));
    void exited.then(() =>
      reject(new Error(`${label} exited before it listened (code ${child.exitCode}): ${err.slice(-400)}`)),
    );
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  child.stdout!.resume();
  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  };
  return { url, pid: child.pid!, child, stderr: () => err, stop };
}
