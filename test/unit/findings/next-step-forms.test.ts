/**
 * Every next-step form with a sample builds its step from that sample (the form docs/findings.md
 * shows for it), and no form's step has a placeholder, a generic phrase outside a labelled
 * fallback, or an empty text; every list of forms ends in a fallback that always builds.
 */
import { describe, expect, it } from '@jest/globals';
import { CATALOG, FINDING_CODES } from '../../../src/findings/catalog.js';
import { genericNextStepContext } from '../../../src/findings/next-step-context.js';
import { hasForms } from '../../../src/findings/next-step-forms.js';
import { FALLBACK_LABEL, genericPhrasesIn, placeholdersIn } from '../../../src/findings/next-step-quality.js';

const ctx = genericNextStepContext({ namespace: 'ns', name: 'svc' }, 'knative-serving');
const withForms = FINDING_CODES.flatMap((code) => {
  const next = CATALOG[code].next;
  return hasForms(next) ? [{ code, forms: next.forms }] : [];
});

describe('next-step forms', () => {
  it('cover the codes whose step depends on the evidence', () => {
    expect(withForms.map((x) => x.code)).toEqual(expect.arrayContaining(['CRASH_LOOP', 'QUOTA_EXCEEDED']));
  });

  it.each(withForms.flatMap(({ code, forms }) => forms.filter((f) => f.sample).map((f) => [code, f.from, f] as const)))(
    '%s: %s builds from its sample',
    (_code, _from, form) => {
      const facts = { subject: 'Pod ns/pod', component: 'predictor', evidence: form.sample ?? [] };
      const step = form.build(ctx, facts) ?? '';
      expect(step.length).toBeGreaterThan(20);
      expect(placeholdersIn(step)).toEqual([]);
      expect(genericPhrasesIn(step)).toEqual([]);
    },
  );

  it.each(withForms.map(({ code, forms }) => [code, forms] as const))(
    '%s ends in a labelled fallback',
    (_code, forms) => {
      const last = forms.at(-1);
      const step = last?.build(ctx, { subject: 'InferenceService ns/svc', evidence: [] }) ?? '';
      expect(step.startsWith(FALLBACK_LABEL)).toBe(true);
    },
  );
});
