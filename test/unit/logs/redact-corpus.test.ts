/** The secrets corpus (test/fixtures/secrets) through the redaction engine, without the CLI around it. */
import { describe, expect, it } from '@jest/globals';
import { redactText } from '../../../src/logs/redact.js';
import { containsSecret } from '../../fixtures/secrets/measure-leaks.mjs';
import { NON_SECRET_LINES } from '../../fixtures/secrets/non-secret-lines.mjs';
import { buildSample, SECRET_SAMPLES } from '../../fixtures/secrets/secret-corpus.mjs';
import { storageInitializerOutput } from '../../fixtures/secrets/secrets-snapshot.mjs';

const SEEDS = [1, 2, 3, 4, 5];

describe('the secrets corpus', () => {
  it('has at least 40 formats', () => {
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SECRET_SAMPLES.map((s) => [s.name, s] as const))(
    '%s: no secret left, the anchor kept, as lines and inside a traceback',
    (_name, sample) => {
      for (const seed of SEEDS) {
        const built = buildSample(sample, seed);
        for (const text of [built.lines.join('\n'), storageInitializerOutput(built.lines)]) {
          const out = redactText(text);
          expect({ seed, leaked: built.secrets.filter((s) => containsSecret(out, s)), out }).toEqual({
            seed,
            leaked: [],
            out,
          });
          expect(out).toContain(built.anchor);
          expect(out.split('\n')).toHaveLength(text.split('\n').length);
          expect(redactText(out)).toBe(out);
        }
      }
    },
  );
});

describe('lines that are not secrets', () => {
  it.each(NON_SECRET_LINES.map((l) => [l]))('%s stays as it is', (line) => {
    expect(redactText(line)).toBe(line);
  });

  it('stay as they are all together (no state from one line leaks into the next)', () => {
    const text = NON_SECRET_LINES.join('\n');
    expect(redactText(text)).toBe(text);
  });
});
