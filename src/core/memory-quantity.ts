/** Kubernetes memory quantities ("256Mi", "1G", "512000000") as bytes and back. */
const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

/** The default cap of an offered memory raise (`remediation.maxMemory`). */
export const DEFAULT_MAX_MEMORY = 16 * 1024 ** 3;

/** Bytes of a memory quantity, or undefined. */
export function parseMemory(q: string | undefined): number | undefined {
  if (!q) return undefined;
  const m = /^(\d+(?:\.\d+)?)([KMGT]i?|k)?$/.exec(q.trim());
  if (!m) return undefined;
  return Number(m[1]) * (UNITS[m[2] ?? ''] ?? 1);
}

/** A quantity in the largest binary unit that keeps it whole (e.g. 536870912 -> "512Mi"). */
export function formatMemory(bytes: number): string {
  for (const unit of ['Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const v = bytes / UNITS[unit]!;
    if (v >= 1 && Number.isInteger(v)) return `${v}${unit}`;
  }
  return `${Math.ceil(bytes / UNITS.Mi!)}Mi`;
}
