import { describe, expect, it } from '@jest/globals';
import { kvCacheTokens } from '../../../src/changes/max-model-len.js';
import { withArg } from '../../../src/changes/runtime-args.js';

describe('withArg on --max-model-len', () => {
  it('adds the flag when the args have none', () => {
    expect(withArg(['--model_id=x', '--backend=vllm'], 'max-model-len', '3664')).toEqual({
      args: ['--model_id=x', '--backend=vllm', '--max-model-len=3664'],
    });
  });
  it('replaces every spelling, in one arg or two, and says what it was', () => {
    expect(withArg(['--max_model_len=8192', '--dtype=half'], 'max-model-len', '4096')).toEqual({
      args: ['--dtype=half', '--max-model-len=4096'],
      from: '8192',
    });
    expect(
      withArg(['--model', '/mnt/models', '--max-model-len', '29000', '--port', '8080'], 'max-model-len', '23648'),
    ).toEqual({
      args: ['--model', '/mnt/models', '--port', '8080', '--max-model-len=23648'],
      from: '29000',
    });
  });
});

describe('kvCacheTokens', () => {
  it("reads vLLM's estimate first, else the KV cache's size in tokens", () => {
    expect(
      kvCacheTokens(
        "ValueError: To serve at least one request with the model's max seq len (1048576), 22.5 GiB KV cache is needed, which is larger than the available KV cache memory (17.39 GiB). Based on the available memory, the estimated maximum model length is 810208.",
      ),
    ).toBe(810208);
    expect(
      kvCacheTokens(
        "ValueError: The model's max seq len (16384) is larger than the maximum number of tokens that can be stored in KV cache (3664).",
      ),
    ).toBe(3664);
    expect(kvCacheTokens('INFO # cuda blocks: 229')).toBeUndefined();
  });
});
