/** The next-step quality check: what it refuses, and the legitimate uses of braces and angle brackets it lets through. */
import { describe, expect, it } from '@jest/globals';
import {
  FALLBACK_LABEL,
  fieldPathProblem,
  genericPhrasesIn,
  isvcPathsIn,
  judgeAdvice,
  nextStepProblems,
  placeholdersIn,
} from '../../../src/findings/next-step-quality.js';
import type { Finding } from '../../../src/findings/types.js';

const v1beta1 = {
  spec: {
    predictor: {
      model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://b/m', resources: { limits: { memory: '1Gi' } } },
      minReplicas: 1,
    },
  },
};
const storageUris = {
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' } }, storageUris: [{ uri: 'hf://a/b' }] } },
};
const v1alpha2 = {
  spec: {
    canaryTrafficPercent: 10,
    default: { predictor: { sklearn: { storageUri: 'gs://b/m' } } },
    canary: { predictor: { tensorflow: { storageUri: 'gs://b/n' } } },
  },
};
const custom = { spec: { predictor: { containers: [{ name: 'kserve-container', image: 'x', env: [] }] } } };

const finding = (next: string, quoted = ''): Finding => ({
  code: 'CRASH_LOOP',
  severity: 'error',
  subject: 'Pod ns/p',
  title: 'crash',
  evidence: [{ kind: 'log', ref: 'Pod ns/p', excerpt: [quoted] }],
  remediation: null,
  next,
});

describe('next-step quality', () => {
  it('finds template slots and angle-bracket names left unfilled', () => {
    expect(placeholdersIn('set {field:storageUri} to {storageUri}')).toEqual(['{field:storageUri}', '{storageUri}']);
    expect(placeholdersIn('kubectl logs -n <controller namespace> <controller pod>')).toEqual([
      '<controller namespace>',
      '<controller pod>',
    ]);
  });

  it('lets jsonpath, JSON, YAML flow maps, Go templates and quoted cluster text through', () => {
    const legit = [
      "kubectl get pod p -o jsonpath='{.spec.initContainers[*].name}'",
      `kubectl patch sa default -p '{"imagePullSecrets":[{"name":"regcred"}]}'`,
      'add a toleration {key: nvidia.com/gpu, operator: Exists}',
      'domainTemplate {{ .Name }}.{{ .Namespace }}',
      'data: {example.com: ""}',
      'Istio 1.3 -> 1.4, requests < 0.8',
    ];
    for (const next of legit) expect({ next, found: placeholdersIn(next) }).toEqual({ next, found: [] });
    expect(placeholdersIn('the model type is {triton <nil>}', 'no runtime for {triton <nil>}')).toEqual([]);
  });

  it('accepts a generic phrase only in a labelled fallback', () => {
    expect(genericPhrasesIn('kubectl logs p --previous: fix what the traceback names')).toHaveLength(1);
    expect(genericPhrasesIn(`${FALLBACK_LABEL} the log of p could not be read: fix what the traceback names`)).toEqual(
      [],
    );
    expect(genericPhrasesIn('kubectl describe isvc x: the conditions and events name the component')).toHaveLength(1);
  });

  it('finds the field paths of the InferenceService a next step names', () => {
    expect(
      isvcPathsIn(
        "set spec.predictor.model.resources.limits.memory, then spec.predictor.containers.0.env[STORAGE_URI]. Not '{.spec.predictor}'",
      ),
    ).toEqual(['spec.predictor.model.resources.limits.memory', 'spec.predictor.containers.0.env[STORAGE_URI]']);
  });

  it('accepts paths that exist, or that a person adds where they belong', () => {
    for (const [isvc, path] of [
      [v1beta1, 'spec.predictor.model.storageUri'],
      [v1beta1, 'spec.predictor.model.resources.limits.cpu'],
      [v1beta1, 'spec.predictor.model.runtimeVersion'],
      [v1beta1, 'spec.predictor.serviceAccountName'],
      [v1beta1, 'spec.predictor.canaryTrafficPercent'],
      [v1alpha2, 'spec.canaryTrafficPercent'],
      [v1alpha2, 'spec.canary.predictor.tensorflow.storageUri'],
      [custom, 'spec.predictor.containers.0.env[STORAGE_URI]'],
      [storageUris, 'spec.predictor.storageUris[0].uri'],
    ] as const)
      expect({ path, problem: fieldPathProblem(isvc, path) }).toEqual({ path, problem: undefined });
  });

  it('refuses paths this object does not have', () => {
    expect(fieldPathProblem(storageUris, 'spec.predictor.model.storageUri')).toMatch(/storageUris/);
    expect(fieldPathProblem(v1alpha2, 'spec.predictor.sklearn.storageUri')).toMatch(/has no predictor/);
    expect(fieldPathProblem(v1beta1, 'spec.canaryTrafficPercent')).toMatch(/has no canaryTrafficPercent/);
    expect(fieldPathProblem(v1alpha2, 'spec.default.predictor.canaryTrafficPercent')).toMatch(/has no/);
    expect(fieldPathProblem(custom, 'spec.predictor.containers.0.storageUri')).toMatch(/has no storageUri/);
    expect(fieldPathProblem(v1beta1, 'spec.predictor.sklearn.storageUri')).toMatch(/has no sklearn/);
  });

  it('judges a report: terms named, wrong targets absent, and every next step usable', () => {
    const report = {
      rootCause: 'CRASH_LOOP',
      findings: [finding('raise spec.predictor.model.resources.limits.memory')],
    };
    expect(judgeAdvice(report, ['limits.memory|memory'], ['storageUri'], v1beta1).ok).toBe(true);
    const wrong = judgeAdvice(report, ['runtimeVersion'], ['memory'], v1beta1);
    expect({ missing: wrong.missing, wrong: wrong.wrong, ok: wrong.ok }).toEqual({
      missing: ['runtimeVersion'],
      wrong: ['memory'],
      ok: false,
    });
    expect(nextStepProblems([finding('set spec.predictor.sklearn.storageUri')], v1beta1)).toHaveLength(1);
  });
});
