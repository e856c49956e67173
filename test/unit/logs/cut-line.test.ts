import { describe, expect, it } from '@jest/globals';
import { cutLine } from '../../../src/logs/cut-line.js';

describe('cutLine', () => {
  it('leaves a short line alone and cuts a long one to the limit, ellipsis included', () => {
    expect(cutLine('short', 10)).toBe('short');
    expect(cutLine('0123456789abc', 10)).toBe('012345678…');
    expect(cutLine('0123456789abc', 10)).toHaveLength(10);
  });

  it('never cuts a redaction marker in half: one that straddles the cut is left out whole', () => {
    const line = 'token=[REDACTED] and more text after it';
    expect(cutLine(line, 12)).toBe('token=…');
    expect(cutLine('x [REDACTED:private-key] y', 20)).toBe('x …');
    expect(cutLine('x [REDACTED] yyyyyyyy', 14)).toBe('x [REDACTED] …');
  });
});
