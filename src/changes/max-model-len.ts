/**
 * The args of a vLLM-based runtime with `--max-model-len` set to a number of tokens: the flag
 * replaced where it is (`--max-model-len=N`, `--max_model_len=N`, or the flag and its value as two
 * args), else added. Pure: the offer (from the diagnosis' reads) and the plan (from the live object)
 * compute the same change.
 */
const FLAG = /^--max[-_]model[-_]len(?:=(.*))?$/;

export interface MaxModelLenChange {
  args: string[];
  /** The value it replaces, when the args set one. */
  from?: string;
}

export function withMaxModelLen(args: readonly string[], tokens: number): MaxModelLenChange {
  const out: string[] = [];
  let from: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = FLAG.exec(args[i] ?? '');
    if (!m) {
      out.push(args[i] ?? '');
      continue;
    }
    if (m[1] !== undefined) from = m[1];
    else {
      from = args[i + 1];
      i++;
    }
  }
  out.push(`--max-model-len=${tokens}`);
  return { args: out, ...(from !== undefined ? { from } : {}) };
}

/** The tokens the KV cache holds, from vLLM's refusal: its estimate (V1), else the KV cache's size in tokens. */
export function kvCacheTokens(line: string): number | undefined {
  const m =
    /estimated maximum model length is (\d+)/.exec(line) ??
    /maximum number of tokens that can be stored in KV cache \((\d+)\)/.exec(line);
  return m ? Number(m[1]) : undefined;
}
