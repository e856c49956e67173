/**
 * vLLM's `--max-model-len` when its KV cache is smaller than the model's context: the tokens the
 * cache holds, read from vLLM's refusal (the flag is set with `withArg`, as every runtime flag).
 */
export const MAX_MODEL_LEN_FLAG = 'max-model-len';

/** The tokens the KV cache holds, from vLLM's refusal: its estimate (V1), else the KV cache's size in tokens. */
export function kvCacheTokens(line: string): number | undefined {
  const m =
    /estimated maximum model length is (\d+)/.exec(line) ??
    /maximum number of tokens that can be stored in KV cache \((\d+)\)/.exec(line);
  return m ? Number(m[1]) : undefined;
}
