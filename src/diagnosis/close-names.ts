/** Names that look like a mistyped `wanted` (edit distance, shared prefix), closest first. */
export function closeNames(wanted: string, candidates: readonly string[], max = 5): string[] {
  const scored = candidates
    .filter((c) => c !== wanted)
    .map((c) => ({ c, d: editDistance(wanted, c) }))
    .filter(
      ({ c, d }) => d <= Math.max(2, Math.floor(wanted.length / 3)) || c.startsWith(wanted) || wanted.startsWith(c),
    )
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, max).map(({ c }) => c);
}

/** Damerau-Levenshtein (optimal string alignment) distance. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
