/**
 * logs/<ns>/<pod>/<container>[.previous].log → a map keyed `ns/pod/container` or `ns/pod/container#previous`.
 *
 * Each log is read bounded, as a cluster's API is asked for one (tailLines / limitBytes): a file of
 * at most `LOG_HEAD_BYTES + LOG_TAIL_BYTES` is read whole; a larger one keeps its first
 * `LOG_HEAD_BYTES` (where a server says how its start went) and its last `LOG_TAIL_BYTES` (where
 * it failed), cut to whole lines, with one line between them saying how much was left out. So a
 * 500 MB log costs a few MB of memory, not the log's size. Bytes that are not UTF-8 are decoded
 * as U+FFFD, as an API server's text would be.
 */
import { type FileHandle, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { SnapshotError } from './snapshot-error.js';

export const LOG_HEAD_BYTES = 1024 * 1024;
export const LOG_TAIL_BYTES = 4 * 1024 * 1024;
/** What all logs of one snapshot may hold together, once bounded. */
export const LOGS_TOTAL_BYTES = 512 * 1024 * 1024;

export async function readContainerLogs(logsDir: string): Promise<Map<string, string>> {
  const logs = new Map<string, string>();
  let total = 0;
  for (const namespace of await subfolders(logsDir)) {
    for (const pod of await subfolders(path.join(logsDir, namespace))) {
      const podDir = path.join(logsDir, namespace, pod);
      for (const entry of await readdir(podDir, { withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.log')) continue;
        const base = entry.name.slice(0, -'.log'.length);
        const previous = base.endsWith('.previous');
        const container = previous ? base.slice(0, -'.previous'.length) : base;
        const key = `${namespace}/${pod}/${container}${previous ? '#previous' : ''}`;
        const file = path.join(podDir, entry.name);
        const text = await readLogBounded(file);
        total += text.length;
        if (total > LOGS_TOTAL_BYTES)
          throw new SnapshotError(
            `the snapshot's logs hold more than ${LOGS_TOTAL_BYTES / 1024 / 1024} MB even read bounded (${LOG_HEAD_BYTES / 1024 / 1024} MB head and ${LOG_TAIL_BYTES / 1024 / 1024} MB tail a log)`,
            file,
          );
        logs.set(key, text);
      }
    }
  }
  return logs;
}

/** One log file, whole when small, else its head and tail (see above). */
export async function readLogBounded(
  file: string,
  headBytes = LOG_HEAD_BYTES,
  tailBytes = LOG_TAIL_BYTES,
): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new SnapshotError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  try {
    const { size } = await handle.stat();
    if (size <= headBytes + tailBytes) return (await readAt(handle, 0, size)).toString('utf8');
    const head = await readAt(handle, 0, headBytes);
    const tail = await readAt(handle, size - tailBytes, tailBytes);
    // whole lines where there are any: a head without a line break, or a tail whose only break ends it, is kept as it is
    const headEnd = head.lastIndexOf(0x0a) + 1 || head.length;
    const firstBreak = tail.indexOf(0x0a) + 1;
    const tailStart = firstBreak > 0 && firstBreak < tail.length ? firstBreak : 0;
    const left = size - headEnd - (tail.length - tailStart);
    const headText = head.subarray(0, headEnd).toString('utf8');
    return `${headText}${headText.endsWith('\n') ? '' : '\n'}[isvc-doctor: ${left} bytes of this ${size}-byte log are not read: a snapshot's log is read as its first ${headBytes} and last ${tailBytes} bytes]\n${tail.subarray(tailStart).toString('utf8')}`;
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  } finally {
    await handle.close();
  }
}

async function readAt(
  handle: import('node:fs/promises').FileHandle,
  position: number,
  length: number,
): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
