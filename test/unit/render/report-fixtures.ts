/** Reports for the renderer tests, shaped like the engine's output for the scenarios. */
import type { Finding, Report } from '../../../src/findings/types.js';

const isvc = 'InferenceService default/sklearn-iris';
const pod = 'Pod default/sklearn-iris-predictor-default-00001-deployment-5f7d4b9996-hzrnc';

export function storageUriNotFoundReport(): Report {
  return {
    target: { namespace: 'default', name: 'sklearn-iris', apiVersion: 'serving.kserve.io/v1beta1' },
    ready: false,
    rootCause: 'STORAGE_URI_NOT_FOUND',
    findings: [
      {
        code: 'STORAGE_URI_NOT_FOUND',
        severity: 'error',
        subject: pod,
        component: 'predictor',
        revision: 'sklearn-iris-predictor-default-00001',
        title: 'Model not found at gs://kfserving-samples/models/sklearn/iris-1',
        evidence: [
          {
            kind: 'field',
            ref: isvc,
            text: 'spec.predictor.sklearn.storageUri = gs://kfserving-samples/models/sklearn/iris-1',
          },
          {
            kind: 'log',
            ref: pod,
            container: 'storage-initializer',
            excerpt: [
              'INFO:root:Copying contents of gs://kfserving-samples/models/sklearn/iris-1 to local',
              'Traceback (most recent call last):',
              '  File "/storage-initializer/scripts/initializer-entrypoint", line 14, in <module>',
              'RuntimeError: Failed to fetch model. The path or model gs://kfserving-samples/models/sklearn/iris-1 does not exist.',
            ],
            lineNumbers: [3, 4, 5, 9],
            truncated: true,
          },
        ],
        remediation: null,
      },
      {
        code: 'STORAGE_INIT_FAILED',
        severity: 'error',
        subject: pod,
        title: 'storage-initializer exited with code 1 (Init:CrashLoopBackOff)',
        evidence: [
          {
            kind: 'condition',
            ref: pod,
            text: 'Initialized=False (ContainersNotInitialized): containers with incomplete status: [storage-initializer]',
          },
        ],
        remediation: null,
        consequenceOf: 'STORAGE_URI_NOT_FOUND',
      },
      {
        code: 'REVISION_MISSING',
        severity: 'error',
        subject: 'Service default/sklearn-iris-predictor-default',
        title: 'Revision sklearn-iris-predictor-default-00001 is not ready',
        evidence: [
          {
            kind: 'condition',
            ref: 'Revision default/sklearn-iris-predictor-default-00001',
            text: 'Ready=False (ProgressDeadlineExceeded): Initial scale was never achieved',
          },
        ],
        remediation: null,
        consequenceOf: 'STORAGE_URI_NOT_FOUND',
      },
      {
        code: 'REQUEST_FLOW',
        severity: 'info',
        subject: isvc,
        title: 'Request path from the ingress gateway to the model',
        evidence: [
          { kind: 'hop', ref: 'Gateway knative-serving/knative-ingress-gateway', state: 'ok' },
          { kind: 'hop', ref: 'VirtualService default/sklearn-iris', state: 'ok' },
          {
            kind: 'hop',
            ref: 'Revision default/sklearn-iris-predictor-default-00001',
            state: 'failing',
            text: 'not ready',
          },
        ],
        remediation: null,
      },
      {
        code: 'TRACING_LINKS',
        severity: 'info',
        subject: isvc,
        title: 'Dashboards and traces',
        evidence: [
          {
            kind: 'link',
            ref: 'Grafana',
            text: 'Grafana',
            url: 'https://grafana.example.com/d/kserve?var-namespace=default&var-isvc=sklearn-iris',
          },
          {
            kind: 'link',
            ref: 'Jaeger',
            text: 'Jaeger',
            url: 'https://jaeger.example.com/search?service=sklearn-iris',
          },
        ],
        remediation: null,
      },
    ],
    stats: { durationMs: 41, apiRequests: 9 },
  };
}

export function readyReport(): Report {
  return {
    target: { namespace: 'default', name: 'sklearn-iris', apiVersion: 'serving.kserve.io/v1beta1' },
    ready: true,
    rootCause: null,
    findings: [
      {
        code: 'ISVC_READY',
        severity: 'info',
        subject: isvc,
        title: 'Ready at http://sklearn-iris.default.example.com',
        evidence: [
          { kind: 'field', ref: isvc, text: 'status.url = http://sklearn-iris.default.example.com' },
          { kind: 'field', ref: isvc, text: 'ready revision sklearn-iris-predictor-default-00001, age 3d' },
        ],
        remediation: null,
      },
      {
        code: 'TRAFFIC_SPLIT',
        severity: 'info',
        subject: isvc,
        title: 'Traffic is split between two revisions',
        evidence: [
          {
            kind: 'field',
            ref: 'Route default/sklearn-iris-predictor-default',
            text: 'sklearn-iris-predictor-default-00001: 90%',
          },
          {
            kind: 'field',
            ref: 'Route default/sklearn-iris-predictor-default',
            text: 'sklearn-iris-predictor-default-00002: 10% (canary)',
          },
        ],
        remediation: null,
      },
    ],
    stats: { durationMs: 12, apiRequests: 7 },
  };
}

export function oomReport(): Report {
  return {
    target: { namespace: 'models', name: 'bert<big>', apiVersion: 'serving.kubeflow.org/v1alpha2' },
    ready: false,
    rootCause: 'OOM_KILLED',
    findings: [
      {
        code: 'OOM_KILLED',
        severity: 'error',
        subject: 'Pod models/bert-predictor-default-abc',
        title: 'kserve-container was killed for memory (exit code 137), limit 1Gi',
        evidence: [
          {
            kind: 'field',
            ref: 'Pod models/bert-predictor-default-abc',
            text: 'lastState.terminated.reason = OOMKilled, exitCode 137, restarts 7',
          },
          {
            kind: 'log',
            ref: 'Pod models/bert-predictor-default-abc',
            container: 'kserve-container',
            previous: true,
            excerpt: ['loading model ```weights``` & <tokenizer>', 'Killed'],
            lineNumbers: [118, 119],
          },
        ],
        remediation: {
          action: 'raise-memory-limit',
          summary: 'Raise the memory limit of the predictor to 2Gi',
          target: 'InferenceService models/bert',
          diff: ['-          memory: 1Gi', '+          memory: 2Gi'],
          needsApproval: true,
        },
      },
      {
        code: 'CRASH_LOOP',
        severity: 'error',
        subject: 'Pod models/bert-predictor-default-abc',
        title: 'kserve-container restarts (CrashLoopBackOff)',
        evidence: [
          { kind: 'event', ref: 'Pod models/bert-predictor-default-abc', text: 'Back-off restarting failed container' },
        ],
        remediation: null,
        consequenceOf: 'OOM_KILLED',
      },
      {
        code: 'BOT_FORBIDDEN',
        severity: 'warning',
        subject: 'Namespace models',
        title: 'Cannot list resourcequotas in models',
        evidence: [{ kind: 'note', ref: 'ClusterRole isvc-doctor-reader', text: 'allow: list resourcequotas' }],
        remediation: null,
      },
    ],
    stats: { durationMs: 80, apiRequests: 14 },
  };
}

/** 80 findings, the root cause with a 10,000-line excerpt, each other finding with a 10,000-line excerpt too. */
export function hugeReport(): Report {
  const longLog = (n: number) =>
    Array.from({ length: n }, (_, i) => `line ${i + 1}: ${'x'.repeat(i % 300)} <tag> & \`\`\``);
  const findings: Finding[] = Array.from({ length: 80 }, (_, i) => ({
    code:
      i === 0 ? 'CRASH_LOOP' : i % 3 === 0 ? 'REQUEST_FLOW' : i % 3 === 1 ? 'READINESS_PROBE_FAILING' : 'BOT_FORBIDDEN',
    severity: i % 3 === 0 && i > 0 ? 'info' : i % 3 === 1 ? 'error' : 'warning',
    subject: `Pod default/p-${i}`,
    title: `Finding ${i} ${'t'.repeat(500)}`,
    evidence: [
      ...Array.from({ length: 60 }, (_, j) => ({
        kind: 'event' as const,
        ref: `Pod default/p-${i}`,
        text: `event ${j} ${'e'.repeat(200)}`,
      })),
      {
        kind: 'log' as const,
        ref: `Pod default/p-${i}`,
        container: 'kserve-container',
        excerpt: longLog(10_000),
        truncated: true,
      },
      { kind: 'log' as const, ref: `Pod default/p-${i}`, container: 'queue-proxy', excerpt: longLog(10_000) },
    ],
    remediation:
      i % 10 === 0
        ? { action: 'manual', summary: 'Do it by hand', manual: longLog(500).join('\n'), needsApproval: false }
        : null,
    ...(i > 0 && i % 3 === 1 ? { consequenceOf: 'CRASH_LOOP' as const } : {}),
  }));
  return {
    target: { namespace: 'default', name: 'huge', apiVersion: 'serving.kserve.io/v1beta1' },
    ready: false,
    rootCause: 'CRASH_LOOP',
    findings,
    stats: { durationMs: 999, apiRequests: 50 },
  };
}
