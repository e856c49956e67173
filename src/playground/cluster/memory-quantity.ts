/** Kubernetes memory quantities ("256Mi", "1G", "2Gi") in bytes, for the playground's workload model. */
const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

export function memoryBytes(quantity: unknown): number | undefined {
  if (typeof quantity === 'number') return quantity;
  if (typeof quantity !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)([KMGT]i?|k)?$/.exec(quantity.trim());
  return m ? Number(m[1]) * UNITS[m[2] ?? '']! : undefined;
}
