/** Signature templates: a group of the pattern, its length, and a group that did not take part. */
import { describe, expect, it } from '@jest/globals';
import { fillTemplate } from '../../../src/signatures/fill-template.js';
import { signatureEntrySchema } from '../../../src/signatures/signature-schema.js';

describe('fillTemplate', () => {
  const match = /label "(?<label>[^"]+)"(?: at (?<where>\S+))?/.exec(
    'invalid (label "latest-fraud-detection-gbm-v2-predictor-default-risk-scoring-prod")',
  );
  const values = { values: { name: 'fraud-detection-gbm-v2' }, field: (k: string) => `spec.predictor.${k}`, match };

  it('fills a group, its length and the service names', () => {
    expect(fillTemplate('{name}: {match:label} is {len:label} characters', values)).toBe(
      'fraud-detection-gbm-v2: latest-fraud-detection-gbm-v2-predictor-default-risk-scoring-prod is 65 characters',
    );
  });

  it('leaves a group that did not take part empty (its length 0)', () => {
    expect(fillTemplate('[{match:where}] {len:where}', values)).toBe('[] 0');
  });

  it('accepts {len:…} in an entry and refuses an unknown placeholder', () => {
    const entry = {
      id: 'x',
      where: 'event',
      pattern: 'a',
      code: 'ADMISSION_DENIED',
      title: '{len:label}',
      next: 'n',
      sample: 'a',
    };
    expect(signatureEntrySchema.safeParse(entry).success).toBe(true);
    expect(signatureEntrySchema.safeParse({ ...entry, title: '{size:label}' }).success).toBe(false);
  });
});
