/** Waits for a `serve` process's log line saying its watcher holds its InferenceServices (JSON logs on stderr). */
import type { ListeningProcess } from './listening-process.js';

export async function watcherHolding(serve: ListeningProcess, count: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const line = new RegExp(`watcher: watching ${count} InferenceServices`);
  while (!line.test(serve.stderr())) {
    if (Date.now() > deadline)
      throw new Error(`the watcher did not report holding ${count} InferenceServices within ${timeoutMs / 1000} s`);
    if (serve.child.exitCode !== null)
      throw new Error(`serve exited (${serve.child.exitCode}): ${serve.stderr().slice(-300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
