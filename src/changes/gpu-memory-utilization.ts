/**
 * When lowering vLLM's `--gpu-memory-utilization` is the fix the evidence supports, and to what.
 *
 * vLLM sizes its KV cache so that weights + activations + KV cache take that fraction of each GPU
 * (default 0.9); whatever runs after the cache is sized (the sampler's warm-up with max_num_seqs
 * dummy requests, CUDA graphs) lives in the rest. vLLM's own error for a sampler warm-up OOM says
 * "lower max_num_seqs or gpu_memory_utilization". When the fraction was raised above the default,
 * that raise is what took the headroom: back to the default (a 0.95 fraction fixed by 0.90–0.92 in
 * the report behind test/scenarios/llm-runtime-vllm-sampler-warmup-oom-gpu-util-095). At or below the
 * default the fix is fewer sequences (--max-num-seqs), not a smaller cache: no offer. An OOM while the weights load is not helped by
 * either (the weights need more or larger GPUs).
 */
import { argValue } from './runtime-args.js';

export const GPU_MEMORY_UTILIZATION_FLAG = 'gpu-memory-utilization';
export const DEFAULT_GPU_MEMORY_UTILIZATION = 0.9;

/** The dummy requests of vLLM's sampler warm-up that ran out of GPU memory, from its line. */
export function samplerWarmupOom(line: string): number | undefined {
  const m = /CUDA out of memory occurred when warming up sampler with (\d+) dummy requests/.exec(line);
  return m ? Number(m[1]) : undefined;
}

/** The fraction the args give vLLM (its default when they give none); undefined when unreadable. */
export function gpuMemoryUtilization(args: readonly string[]): number | undefined {
  const raw = argValue(args, GPU_MEMORY_UTILIZATION_FLAG);
  if (raw === undefined) return DEFAULT_GPU_MEMORY_UTILIZATION;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 && n <= 1 ? n : undefined;
}

/** The lower fraction for a sampler warm-up OOM, or undefined when lowering it is not the fix (at or below the default). */
export function lowerUtilizationFor(current: number): number | undefined {
  return current > DEFAULT_GPU_MEMORY_UTILIZATION ? DEFAULT_GPU_MEMORY_UTILIZATION : undefined;
}
