/**
 * lower-gpu-memory-utilization: the args helpers (shared with lower-max-model-len), when the evidence
 * supports lowering the fraction (a sampler warm-up OOM above vLLM's default) and when it does not
 * (at or below the default; an OOM while the weights load), and the report's offer equal to the plan
 * (dry run, no write) on llm-runtime-vllm-sampler-warmup-oom-gpu-util-095.
 */
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';
import { diffLines } from '../../../src/changes/field-changes.js';
import {
  gpuMemoryUtilization,
  lowerUtilizationFor,
  samplerWarmupOom,
} from '../../../src/changes/gpu-memory-utilization.js';
import { argValue, withArg } from '../../../src/changes/runtime-args.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';

describe('runtime args', () => {
  it('withArg replaces every spelling, in one arg or two, and says what it was', () => {
    expect(withArg(['--gpu_memory_utilization', '0.95', '--dtype=half'], 'gpu-memory-utilization', '0.9')).toEqual({
      args: ['--dtype=half', '--gpu-memory-utilization=0.9'],
      from: '0.95',
    });
    expect(withArg(['--model_id=x'], 'gpu-memory-utilization', '0.9')).toEqual({
      args: ['--model_id=x', '--gpu-memory-utilization=0.9'],
    });
  });
  it('argValue reads the last one, as argparse does', () => {
    expect(
      argValue(['--gpu-memory-utilization=0.8', '--gpu_memory_utilization', '0.95'], 'gpu-memory-utilization'),
    ).toBe('0.95');
    expect(argValue(['--max-model-len=4096'], 'gpu-memory-utilization')).toBeUndefined();
  });
});

describe('when lowering --gpu-memory-utilization is the fix', () => {
  it("reads the sampler warm-up's dummy requests from vLLM's line", () => {
    expect(
      samplerWarmupOom(
        'RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.',
      ),
    ).toBe(1024);
    expect(
      samplerWarmupOom('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.'),
    ).toBeUndefined();
  });
  it('vLLM default 0.9 when the args give none; an unreadable value is unknown', () => {
    expect(gpuMemoryUtilization(['--model_id=x'])).toBe(0.9);
    expect(gpuMemoryUtilization(['--gpu-memory-utilization', '0.78'])).toBe(0.78);
    expect(gpuMemoryUtilization(['--gpu-memory-utilization=high'])).toBeUndefined();
  });
  it('back to the default when raised above it; at or below it fewer sequences are the fix, not a smaller cache', () => {
    expect(lowerUtilizationFor(0.95)).toBe(0.9);
    expect(lowerUtilizationFor(0.9)).toBeUndefined();
    expect(lowerUtilizationFor(0.78)).toBeUndefined();
  });
});

async function scenario(name: string, target: { namespace: string; name: string }) {
  const { sim, report, ctx } = await diagnosedScenario(name, target);
  return { sim, oom: report.findings.find((f) => f.code === 'GPU_OUT_OF_MEMORY'), ctx };
}

describe('lower-gpu-memory-utilization', () => {
  it("sampler warm-up OOM at 0.95: the report offers 0.9, the plan's exact change, dry run and no write", async () => {
    const { sim, oom, ctx } = await scenario('llm-runtime-vllm-sampler-warmup-oom-gpu-util-095', {
      namespace: 'inference',
      name: 'qwen3-32b',
    });
    expect(oom?.remediation).toMatchObject({
      action: 'lower-gpu-memory-utilization',
      needsApproval: true,
      params: { to: 0.9, from: 0.95, path: ['spec', 'predictor', 'model', 'args'] },
    });
    const action = ACTIONS['lower-gpu-memory-utilization'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(oom!.remediation!.params));
    expect(oom!.remediation!.diff).toEqual(diffLines(plan.changes));
    expect((plan.changes[0]!.after as string[]).at(-1)).toBe('--gpu-memory-utilization=0.9');
    expect(plan.changes[0]!.after).not.toContain('--gpu-memory-utilization=0.95');
    expect(plan.risk).toBe('medium');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(action.label(plan, plan.params, 'GPU_OUT_OF_MEMORY')).toBe('Set --gpu-memory-utilization=0.9');
  });

  it('an OOM while the weights load offers no lower fraction (more or larger GPUs are the fix)', async () => {
    const { oom } = await scenario('llm-runtime-hf-vllm-cuda-oom-loading-weights', {
      namespace: 'research',
      name: 'qwq-32b',
    });
    expect(oom).toBeDefined();
    expect(oom!.remediation?.action).not.toBe('lower-gpu-memory-utilization');
  });

  it('the plan refuses when the args already give the lower fraction', async () => {
    const { sim, ctx } = await scenario('llm-runtime-vllm-sampler-warmup-oom-gpu-util-095', {
      namespace: 'inference',
      name: 'qwen3-32b',
    });
    const o = sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', 'inference', 'qwen3-32b')!;
    const model = (o.spec as { predictor: { model: { args: string[] } } }).predictor.model;
    model.args = withArg(model.args, 'gpu-memory-utilization', '0.85').args;
    sim.store.upsert(o);
    const action = ACTIONS['lower-gpu-memory-utilization'];
    await expect(
      action.plan(ctx, action.params.parse({ path: ['spec', 'predictor', 'model', 'args'], to: 0.9 })),
    ).rejects.toMatchObject({ code: 'REMEDIATION_NOTHING_TO_CHANGE' });
  });
});
