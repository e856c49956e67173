import { describe, expect, it } from '@jest/globals';
import { decidingSpan, focusLine } from '../../../src/logs/focus-line.js';

describe('focusLine', () => {
  it('keeps an exception message whole, leaving out the log prefix before it', () => {
    const message =
      "ValueError: To serve at least one request with the models's max seq len (262144), (24.0 GiB KV cache is needed, which is larger than the available KV cache memory (3.18 GiB). Based on the available memory, the estimated maximum model length is 34736.";
    const line = `(EngineCore_0 pid=312) ERROR 08-20 10:15:36 [core.py:700] ${message}`;
    const out = focusLine(line, 260);
    expect(out).toContain(message);
    expect(out.startsWith('…')).toBe(true);
  });

  it('keeps the clause of a refusal whole and cuts around it between words', () => {
    const line = `${'I0101 reconcile step '.repeat(10)}admission webhook "validation.webhook.serving.knative.dev" denied the request: validation failed: must not set the field(s): spec.template.spec.nodeSelector. ${'trailing noise '.repeat(10)}`;
    const span = decidingSpan(line)!;
    expect(line.slice(span.start, span.end)).toBe(
      'denied the request: validation failed: must not set the field(s): spec.template.spec.nodeSelector.',
    );
    const out = focusLine(line, 200);
    expect(out).toContain(
      'denied the request: validation failed: must not set the field(s): spec.template.spec.nodeSelector.',
    );
    expect(out.length).toBeLessThanOrEqual(200);
  });

  it('reduces a long dict in the line before cutting it', () => {
    const line = `ERROR load failed: {'names': [${"'col', ".repeat(40)}'end'], 'error': 'incompatible dtype', 'itemsize': 56}`;
    expect(focusLine(line, 120)).toBe(
      "ERROR load failed: {'names': […], 'error': 'incompatible dtype', 'itemsize': 56}",
    );
  });
});
