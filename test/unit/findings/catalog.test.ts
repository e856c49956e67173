/** The finding catalog: one entry per code, a next step for every error, and docs/findings.md generated from it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { findingsDoc, FINDINGS_DOC } from '../../../scripts/findings-doc.js';
import {
  CATALOG,
  DETAILS_SECTIONS,
  FINDING_CODES,
  LLM_RUNTIME_CODES,
  POD_LEVEL_CODES,
} from '../../../src/findings/catalog.js';
import { genericNextStepContext } from '../../../src/findings/next-step-context.js';

const CONTRACT_CODES = [
  'ISVC_NOT_FOUND',
  'ISVC_READY',
  'BOT_FORBIDDEN',
  'INGRESS_NOT_CONFIGURED',
  'PROBE_BLOCKED_BY_AUTH',
  'PROBE_BLOCKED_BY_RBAC',
  'REVISION_MISSING',
  'STORAGE_URI_NOT_FOUND',
  'STORAGE_ACCESS_DENIED',
  'STORAGE_INIT_FAILED',
  'OOM_KILLED',
  'CRASH_LOOP',
  'MODEL_FILE_MISSING',
  'IMAGE_PULL_FAILED',
  'IMAGE_DIGEST_RESOLUTION_FAILED',
  'POD_UNSCHEDULABLE',
  'QUOTA_EXCEEDED',
  'READINESS_PROBE_FAILING',
  'GATEWAY_MISSING',
  'VIRTUALSERVICE_MISSING',
  'NO_SUPPORTING_RUNTIME',
  'MODEL_LOAD_FAILED',
  'CANARY_UNHEALTHY',
  'TRAFFIC_SPLIT',
  'TRACING_LINKS',
  'CONTROLLER_RECONCILE_FAILED',
  'ADMISSION_DENIED',
  'STORAGE_URI_UNSUPPORTED',
  'STORAGE_INITIALIZER_NOT_INJECTED',
  'RUNTIME_UNSUPPORTED_MODEL',
];

describe('finding catalog', () => {
  it('holds every code of the findings contract', () => {
    expect(CONTRACT_CODES.filter((c) => !(FINDING_CODES as string[]).includes(c))).toEqual([]);
  });

  it('gives every error and warning code a next step that names the service', () => {
    const ctx = genericNextStepContext({ namespace: 'team-a', name: 'fraud-model' }, 'knative-serving');
    for (const code of FINDING_CODES) {
      const entry = CATALOG[code];
      if (entry.severity === 'info') continue;
      expect({ code, next: entry.next !== null }).toEqual({ code, next: true });
      const next = entry.next!(ctx, { subject: 'InferenceService team-a/fraud-model', evidence: [] });
      if (
        ![
          'PROBE_BLOCKED_BY_AUTH',
          'GATEWAY_MISSING',
          'BOT_FORBIDDEN',
          'CLUSTER_UNREACHABLE',
          'KNATIVE_PROBES_NOT_BEST_EFFORT',
          'IMAGE_DIGEST_RESOLUTION_FAILED',
        ].includes(code)
      ) {
        expect({ code, names: next.includes('team-a') || next.includes('fraud-model') }).toEqual({ code, names: true });
      }
    }
  });

  it('a failing canary and a failed rollout explain every code whose entry is podLevel, and the codes they list', () => {
    expect(POD_LEVEL_CODES).toEqual(FINDING_CODES.filter((code) => CATALOG[code].podLevel));
    expect(POD_LEVEL_CODES).toEqual(expect.arrayContaining(['OOM_KILLED', 'IMAGE_PULL_FAILED', ...LLM_RUNTIME_CODES]));
    for (const carrier of ['CANARY_UNHEALTHY', 'ROLLOUT_FAILED'] as const)
      expect(CATALOG[carrier].explains).toEqual([...POD_LEVEL_CODES, 'REVISION_MISSING', 'ISVC_NOT_READY']);
  });

  it('the details sections of their own come from the entries, in their order', () => {
    expect(DETAILS_SECTIONS).toEqual([
      { title: 'Request flow', codes: ['REQUEST_FLOW'] },
      { title: 'Traffic split', codes: ['TRAFFIC_SPLIT'] },
      { title: 'Metrics and traces', codes: ['TRACING_LINKS'] },
    ]);
  });

  it('docs/findings.md is what `npm run docs:findings` writes', () => {
    const stale = 'docs/findings.md is stale: run `npm run docs:findings` and commit it';
    expect({ file: readFileSync(FINDINGS_DOC, 'utf8') === findingsDoc() ? 'current' : stale }).toEqual({
      file: 'current',
    });
  });
});
