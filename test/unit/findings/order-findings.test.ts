import { describe, expect, it } from '@jest/globals';
import { finding } from '../../../src/findings/finding.js';
import { orderFindings } from '../../../src/findings/order-findings.js';

const f = (code: Parameters<typeof finding>[0], extra: { component?: string; revision?: string } = {}) =>
  finding(code, { subject: 'x', title: code, ...extra });

describe('orderFindings', () => {
  it('puts the most specific cause first and marks what it explains', () => {
    const out = orderFindings([
      f('ISVC_NOT_READY'),
      f('REVISION_MISSING'),
      f('STORAGE_INIT_FAILED'),
      f('STORAGE_URI_NOT_FOUND'),
      f('REQUEST_FLOW'),
    ]);
    expect(out.map((x) => x.code)).toEqual([
      'STORAGE_URI_NOT_FOUND',
      'STORAGE_INIT_FAILED',
      'REVISION_MISSING',
      'ISVC_NOT_READY',
      'REQUEST_FLOW',
    ]);
    expect(out[1]!.consequenceOf).toBe('STORAGE_URI_NOT_FOUND');
    expect(out[2]!.consequenceOf).toBe('STORAGE_URI_NOT_FOUND');
    expect(out[0]!.consequenceOf).toBeUndefined();
    expect(out[4]!.consequenceOf).toBeUndefined();
  });

  it('does not let one component explain another', () => {
    const out = orderFindings([
      f('CRASH_LOOP', { component: 'transformer' }),
      f('OOM_KILLED', { component: 'predictor' }),
    ]);
    expect(out[1]!.code).toBe('CRASH_LOOP');
    expect(out[1]!.consequenceOf).toBeUndefined();
  });

  it('marks probe failures as the cause of IngressNotConfigured', () => {
    const out = orderFindings([f('INGRESS_NOT_CONFIGURED'), f('PROBE_BLOCKED_BY_AUTH')]);
    expect(out.map((x) => [x.code, x.consequenceOf])).toEqual([
      ['PROBE_BLOCKED_BY_AUTH', undefined],
      ['INGRESS_NOT_CONFIGURED', 'PROBE_BLOCKED_BY_AUTH'],
    ]);
  });
});
