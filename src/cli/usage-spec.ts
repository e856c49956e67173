/**
 * What a command's usage line says it takes: its positionals and its flags, each with the
 * placeholder of its value (`-n NAMESPACE`, `-o text|json|yaml`) or none (`-A`). The shell
 * completion is read from the usage lines, so a flag added to a usage line completes at once.
 */
export interface UsageFlag {
  flag: string;
  /** The placeholder (DIR, FILE, NAMESPACE, CTX, N…) or the choices (text|json|yaml); none for a switch. */
  value?: string;
}

export interface UsageSpec {
  positionals: string[];
  flags: UsageFlag[];
}

/** Tokens of a usage line after "isvc-doctor NAME": words, "[", "]" and the "|" between alternatives. */
function tokens(usage: string): string[] {
  const words = usage.trim().split(/\s+/).slice(2);
  return words.flatMap((w) => w.match(/\[|\]|[^[\]]+/g) ?? []).filter((t) => t !== '...');
}

export function usageSpec(usage: string): UsageSpec {
  const spec: UsageSpec = { positionals: [], flags: [] };
  let last: UsageFlag | null = null;
  for (const t of tokens(usage)) {
    if (t === '[' || t === ']' || t === '|') {
      last = null;
    } else if (t.startsWith('-')) {
      last = { flag: t };
      spec.flags.push(last);
    } else if (last && last.value === undefined) {
      last.value = t;
    } else {
      spec.positionals.push(t);
    }
  }
  return spec;
}
