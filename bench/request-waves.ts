/**
 * Dependent request waves: a request belongs to wave k+1 when it arrived after a request of wave k
 * was answered (it could have waited for that answer); requests that arrived while nothing before
 * them had been answered are wave 1. With a large simulator latency, requests sent together land
 * in one wave and each round trip a client waits for starts a new one.
 */
import type { LoggedRequest } from './request-log-reader.js';

export function requestWaves(requests: LoggedRequest[]): number {
  const sorted = [...requests].sort((a, b) => a.at - b.at);
  const waves: number[] = [];
  let deepest = 0;
  sorted.forEach((r, i) => {
    let wave = 1;
    for (let j = 0; j < i; j += 1) if (sorted[j]!.doneAt <= r.at) wave = Math.max(wave, waves[j]! + 1);
    waves.push(wave);
    deepest = Math.max(deepest, wave);
  });
  return deepest;
}

/** The most requests that arrived within any one second. */
export function peakPerSecond(requests: LoggedRequest[]): number {
  const at = requests.map((r) => r.at).sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < at.length; end += 1) {
    while (at[end]! - at[start]! >= 1000) start += 1;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}
