/** A child's memory read from outside, from /proc/PID/status (Linux): resident set now and its peak. */
import { readFileSync, writeFileSync } from 'node:fs';

export interface ProcMemory {
  rssMb: number;
  hwmMb: number;
}

export function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs), so that the next peak is the next command's. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Waits until RSS moves less than `toleranceMb` over `quietMs` (GC and lazy work done), at most `maxMs`. */
export async function settledMemory(
  pid: number,
  options: { quietMs?: number; toleranceMb?: number; maxMs?: number } = {},
): Promise<ProcMemory> {
  const { quietMs = 2000, toleranceMb = 1, maxMs = 20_000 } = options;
  const deadline = Date.now() + maxMs;
  let last = procMemory(pid);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const now = procMemory(pid);
    if (Math.abs(now.rssMb - last.rssMb) > toleranceMb) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) return now;
  }
  return procMemory(pid);
}
