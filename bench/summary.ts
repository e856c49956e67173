/** Median and spread of a figure measured over several runs. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summary(values: number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** Nearest-rank percentile (p99 of 200 samples is the 198th smallest). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** "412 [380–455]": the median, then the range over runs when there was more than one. */
export function formatSummary(s: Summary, format: (v: number) => string): string {
  if (s.n === 0) return 'n/a';
  if (s.n === 1 || s.min === s.max) return format(s.median);
  return `${format(s.median)} [${format(s.min)}–${format(s.max)}]`;
}

export const ms = (v: number): string => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
export const mb = (v: number): string => `${v.toFixed(0)} MB`;
export const times = (v: number): string => `${v.toFixed(v >= 10 ? 0 : 1)}×`;
export const count = (v: number): string => String(Math.round(v));
