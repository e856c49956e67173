import { describe, expect, it } from '@jest/globals';
import { redactDeep } from '../../../src/logs/redact-deep.js';
import { secretGenerator } from '../../fixtures/secrets/secret-generator.mjs';

const g = secretGenerator(21);

describe('redactDeep', () => {
  it('masks values under secret keys whole, keeps the rest, and redacts secrets inside other strings', () => {
    const [pw, token, key] = [g.password(), g.b64url(40), g.alnum(36)];
    const entry = {
      action: 'raise-memory-limit',
      user: 'U0APPROVER',
      request: {
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: { password: pw, retries: 3 },
      },
      message: `clone https://ghp_${key}@github.com/acme/models failed`,
      tokens: 512,
    };
    const out = redactDeep(entry);
    expect(out).toEqual({
      action: 'raise-memory-limit',
      user: 'U0APPROVER',
      request: {
        headers: { Authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
        body: { password: '[REDACTED]', retries: 3 },
      },
      message: 'clone https://ghp_[REDACTED]@github.com/acme/models failed',
      tokens: 512,
    });
    expect(entry.request.body.password).toBe(pw); // the input is not changed
  });

  it('masks a secret under its key even when it looks like nothing (a short word, a number)', () => {
    expect(redactDeep({ apiKey: 'abc', pin_secret: 1234, secretName: 's3-credentials', token: '' })).toEqual({
      apiKey: '[REDACTED]',
      pin_secret: '[REDACTED]',
      secretName: 's3-credentials',
      token: '',
    });
  });

  it('walks arrays, Maps, Errors and cycles; leaves Dates and Buffers', () => {
    const pw = g.password();
    const error = new TypeError(`connect postgres://u:${pw}@db/x failed`);
    const cyclic: Record<string, unknown> = {
      list: [`DB_PASSWORD=${pw}`],
      map: new Map([['password', pw]]),
      error,
      at: new Date(0),
      raw: Buffer.from('x'),
    };
    cyclic.self = cyclic;
    const out = redactDeep(cyclic);
    expect(out.list).toEqual(['DB_PASSWORD=[REDACTED]']);
    expect((out.map as Map<string, string>).get('password')).toBe('[REDACTED]');
    expect(out.error).toBeInstanceOf(TypeError);
    expect((out.error as Error).message).toBe('connect postgres://u:[REDACTED]@db/x failed');
    expect((out.error as Error).stack).not.toContain(pw);
    expect(out.at).toBe(cyclic.at);
    expect(out.raw).toBe(cyclic.raw);
    expect(out.self).toBe(out);
    expect(JSON.stringify({ ...out, self: undefined })).not.toContain(pw);
  });
});
