/**
 * The anchor of the diagnosis rows: the KFServing debug guide ("Debug KFServing InferenceService
 * Status") typed into kubectl. Two forms per scenario:
 * - `script`: the guide's checks as a person's script runs them, not knowing the answer yet, one
 *   after the other, going on when one fails: get the InferenceService, the Knative Service, the
 *   latest revision (`get configuration -o jsonpath`), the pods, `describe pod`, the
 *   storage-initializer's and the model container's logs, the ingress controller's logs. The same
 *   list for every scenario (names and labels of the install: KFServing 0.3 or KServe).
 * - `shortest`: only the commands on the way to this scenario's root cause (a person who reads each
 *   answer and knows where to look next): the fastest a runbook gets.
 * `{rev}` and `{pod}` come from the output of an earlier step, as a person reads them off the
 * screen. `evidence` must appear in the output: proof that the runbook reached the root cause.
 */
export interface RunbookStep {
  args: string[];
  /** Remember this step's output: `rev` (the whole output) or `pod` (first name in the table). */
  capture?: 'rev' | 'pod';
}

export interface Runbook {
  scenario: string;
  target: { namespace: string; name: string };
  rootCause: string;
  script: RunbookStep[];
  shortest: RunbookStep[];
  evidence: RegExp;
}

/** What differs between installs: the InferenceService resource, the Knative Service, the pods' label, the model container. */
interface Install {
  isvc: string;
  ksvc: string;
  podLabel: string;
  modelContainer: string;
}

/** KFServing 0.3 serves v1alpha2 only; the simulator serves every version without conversion, so the version is named. */
const kfserving = (name: string): Install => ({
  isvc: 'inferenceservices.v1alpha2.serving.kubeflow.org',
  ksvc: `${name}-predictor-default`,
  podLabel: `model=${name}`,
  modelContainer: 'kfserving-container',
});
const kserve = (name: string): Install => ({
  isvc: 'inferenceservices',
  ksvc: `${name}-predictor`,
  podLabel: `serving.kserve.io/inferenceservice=${name}`,
  modelContainer: 'kserve-container',
});

const getIsvc = (i: Install, ns: string, name: string): RunbookStep => ({ args: ['get', i.isvc, name, '-n', ns] });
const getKsvc = (i: Install, ns: string): RunbookStep => ({ args: ['get', 'ksvc', i.ksvc, '-n', ns] });
const latestRevision = (i: Install, ns: string): RunbookStep[] => [
  {
    args: ['get', 'configuration', i.ksvc, '-n', ns, '--output', 'jsonpath={.status.latestCreatedRevisionName}'],
    capture: 'rev',
  },
  { args: ['get', 'revision', '{rev}', '-n', ns] },
];
const getPods = (i: Install, ns: string): RunbookStep => ({
  args: ['get', 'pods', '-l', i.podLabel, '-n', ns],
  capture: 'pod',
});
const describePod = (ns: string): RunbookStep => ({ args: ['describe', 'pod', '{pod}', '-n', ns] });
const storageLogs = (i: Install, ns: string): RunbookStep => ({
  args: ['logs', '-l', i.podLabel, '-c', 'storage-initializer', '-n', ns],
});
const modelLogs = (i: Install, ns: string): RunbookStep => ({ args: ['logs', '{pod}', i.modelContainer, '-n', ns] });
const ingressLogs: RunbookStep = { args: ['logs', '-l', 'app=networking-istio', '-n', 'knative-serving'] };

/** Every status check of the guide, in its order. */
function guideScript(i: Install, ns: string, name: string): RunbookStep[] {
  return [
    getIsvc(i, ns, name),
    getKsvc(i, ns),
    ...latestRevision(i, ns),
    getPods(i, ns),
    describePod(ns),
    storageLogs(i, ns),
    modelLogs(i, ns),
    ingressLogs,
  ];
}

function runbook(
  scenario: string,
  install: Install,
  ns: string,
  name: string,
  rootCause: string,
  shortest: (i: Install) => RunbookStep[],
  evidence: RegExp,
): Runbook {
  return {
    scenario,
    target: { namespace: ns, name },
    rootCause,
    script: guideScript(install, ns, name),
    shortest: shortest(install),
    evidence,
  };
}

export const RUNBOOKS: readonly Runbook[] = [
  runbook(
    'storage-uri-not-found',
    kfserving('sklearn-iris'),
    'default',
    'sklearn-iris',
    'STORAGE_URI_NOT_FOUND',
    (i) => [
      getIsvc(i, 'default', 'sklearn-iris'),
      getKsvc(i, 'default'),
      ...latestRevision(i, 'default'),
      getPods(i, 'default'),
      storageLogs(i, 'default'),
    ],
    /The path or model .* does not exist/,
  ),
  runbook(
    'oom-exit-code-137',
    kfserving('sklearn-iris'),
    'default',
    'sklearn-iris',
    'OOM_KILLED',
    (i) => [
      getIsvc(i, 'default', 'sklearn-iris'),
      getKsvc(i, 'default'),
      ...latestRevision(i, 'default'),
      getPods(i, 'default'),
      describePod('default'),
    ],
    /OOMKilled/,
  ),
  runbook(
    'crashloop-model-file-missing',
    kfserving('sklearn-iris'),
    'default',
    'sklearn-iris',
    'MODEL_FILE_MISSING',
    (i) => [
      getIsvc(i, 'default', 'sklearn-iris'),
      getKsvc(i, 'default'),
      ...latestRevision(i, 'default'),
      getPods(i, 'default'),
      modelLogs(i, 'default'),
    ],
    /StopIteration/,
  ),
  runbook(
    'ingress-auth-302-uaex',
    kfserving('sklearn-iris'),
    'ml-team',
    'sklearn-iris',
    'PROBE_BLOCKED_BY_AUTH',
    (i) => [getIsvc(i, 'ml-team', 'sklearn-iris'), getKsvc(i, 'ml-team'), ingressLogs],
    /got 302/,
  ),
  runbook(
    'image-pull-backoff',
    kserve('fraud-predictor'),
    'fraud-detection',
    'fraud-predictor',
    'IMAGE_PULL_FAILED',
    (i) => [
      getIsvc(i, 'fraud-detection', 'fraud-predictor'),
      getKsvc(i, 'fraud-detection'),
      ...latestRevision(i, 'fraud-detection'),
      getPods(i, 'fraud-detection'),
      describePod('fraud-detection'),
    ],
    /Failed to pull image/,
  ),
];
