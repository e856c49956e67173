/**
 * How many sequences vLLM should batch when its sampler warm-up ran out of GPU memory with the
 * fraction at or below its default (then fewer sequences, not a smaller KV cache, is the fix: vLLM's
 * own error says "lower max_num_seqs or gpu_memory_utilization"). The warm-up samples max_num_seqs
 * dummy requests at once and its memory (the logits, sequences × vocabulary) grows with them: the
 * largest power of two below the count that failed at least halves it (1024 → 512, the value the
 * report behind test/scenarios/llm-runtime-vllm-sampler-warmup-oom-gpu-util-095 names).
 */
export const MAX_NUM_SEQS_FLAG = 'max-num-seqs';

/** The sequences to allow after a warm-up of `requests` failed; undefined when there is nothing lower to ask. */
export function fewerSequencesFor(requests: number): number | undefined {
  if (!Number.isInteger(requests) || requests <= 1) return undefined;
  return 2 ** Math.floor(Math.log2(requests - 1));
}
