/**
 * The args of a vLLM-based runtime with `--max-model-len` set to a number of tokens: the flag
 * replaced where it is (`--max-model-len=N`, `--max_model_len=N`, or the flag and its value as two
 * args), else added (`withArg`, shared with the other flags an action sets).
 */
import { type ArgChange, withArg } from './runtime-args.js';

export type MaxModelLenChange = ArgChange;

export function withMaxModelLen(args: readonly string[], tokens: number): MaxModelLenChange {
  return withArg(args, 'max-model-len', String(tokens));
}

/** The tokens the KV cache holds, from vLLM's refusal: its estimate (V1), else the KV cache's size in tokens. */
export function kvCacheTokens(line: string): number | undefined {
  const m =
    /estimated maximum model length is (\d+)/.exec(line) ??
    /maximum number of tokens that can be stored in KV cache \((\d+)\)/.exec(line);
  return m ? Number(m[1]) : undefined;
}
