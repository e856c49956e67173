/**
 * lower-max-num-seqs: how many sequences to ask for after a sampler warm-up OOM, and the offer on
 * llm-runtime-vllm-sampler-warmup-oom-default-fraction (vLLM at its default fraction, so fewer
 * sequences, not a smaller KV cache, is the fix): the report's offer equals the plan (dry run, no
 * write); above the default the fraction is lowered instead; the plan refuses when the args already
 * ask for no more.
 */
import { describe, expect, it } from '@jest/globals';
import { diffLines } from '../../../src/changes/field-changes.js';
import { fewerSequencesFor } from '../../../src/changes/max-num-seqs.js';
import { withArg } from '../../../src/changes/runtime-args.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';

const TARGET = { namespace: 'inference', name: 'qwq-32b' };
const ARGS = ['spec', 'predictor', 'model', 'args'];

async function scenario(name: string, target = TARGET) {
  const { sim, report, ctx } = await diagnosedScenario(name, target);
  return { sim, oom: report.findings.find((f) => f.code === 'GPU_OUT_OF_MEMORY'), ctx };
}

describe('fewer sequences after a sampler warm-up OOM', () => {
  it('the largest power of two below the count that failed', () => {
    expect(fewerSequencesFor(1024)).toBe(512);
    expect(fewerSequencesFor(256)).toBe(128);
    expect(fewerSequencesFor(300)).toBe(256);
    expect(fewerSequencesFor(2)).toBe(1);
    expect(fewerSequencesFor(1)).toBeUndefined();
  });
});

describe('lower-max-num-seqs', () => {
  it('at the default fraction the report offers --max-num-seqs=512, the plan the same change, dry run and no write', async () => {
    const { sim, oom, ctx } = await scenario('llm-runtime-vllm-sampler-warmup-oom-default-fraction');
    expect(oom?.remediation).toMatchObject({
      action: 'lower-max-num-seqs',
      needsApproval: true,
      params: { to: 512, from: 1024, path: ARGS },
    });
    const action = ACTIONS['lower-max-num-seqs'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(oom!.remediation!.params));
    expect(oom!.remediation!.diff).toEqual(diffLines(plan.changes));
    expect((plan.changes[0]!.after as string[]).at(-1)).toBe('--max-num-seqs=512');
    expect(plan.risk).toBe('medium');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(action.label(plan, plan.params, 'GPU_OUT_OF_MEMORY')).toBe('Set --max-num-seqs=512');
  });

  it('above the default fraction the fraction is lowered instead', async () => {
    const { oom } = await scenario('llm-runtime-vllm-sampler-warmup-oom-gpu-util-095', {
      namespace: 'inference',
      name: 'qwen3-32b',
    });
    expect(oom?.remediation?.action).toBe('lower-gpu-memory-utilization');
  });

  it('the plan refuses when the args already batch no more sequences', async () => {
    const { sim, ctx } = await scenario('llm-runtime-vllm-sampler-warmup-oom-default-fraction');
    const o = sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', TARGET.namespace, TARGET.name)!;
    const model = (o.spec as { predictor: { model: { args: string[] } } }).predictor.model;
    model.args = withArg(model.args, 'max-num-seqs', '256').args;
    sim.store.upsert(o);
    const action = ACTIONS['lower-max-num-seqs'];
    await expect(action.plan(ctx, action.params.parse({ path: ARGS, to: 512 }))).rejects.toMatchObject({
      code: 'REMEDIATION_NOTHING_TO_CHANGE',
    });
  });
});
