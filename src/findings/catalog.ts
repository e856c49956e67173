/**
 * The one catalog of finding codes: for each code its severity, what it means and which evidence a
 * person must see, which less specific codes it explains, and the next step a person takes, as a
 * template filled with the service's real names. The entries are in specificity order (the first
 * entry is the most specific): the root cause of a report is its most specific error.
 *
 * Codes never change meaning; wording around them may. `docs/findings.md` is generated from this
 * table (`npm run docs:findings`), and a test fails when it is stale.
 */
import type { NextStepContext } from './next-step-context.js';

export type Severity = 'error' | 'warning' | 'info';

/** What a next-step template may read of the finding it is for. */
export interface FindingFacts {
  subject: string;
  component?: string;
  revision?: string;
  evidence: ReadonlyArray<{ kind: string; container?: string; previous?: boolean }>;
}

/** The next step as one line: the exact field to edit or command to run, with the service's names. */
export type NextStepTemplate = (c: NextStepContext, f: FindingFacts) => string;

export interface CatalogEntry {
  severity: Severity;
  /** A short name of the code, for lists and docs. */
  title: string;
  /** When a diagnosis reports it. */
  when: string;
  /** The evidence a person must see with it. */
  evidence: string;
  /** Codes its finding explains when both are about the same component and revision. */
  explains: readonly string[];
  /** null for codes that need no action (context, a clean bill). */
  next: NextStepTemplate | null;
}

/** "kubectl edit inferenceservice NAME -n NS: WHAT" */
const edit = (c: NextStepContext, what: string) => `kubectl edit inferenceservice ${c.name} -n ${c.namespace}: ${what}`;
/** The pod a finding is about ("Pod ns/name" subject), or a selector for the service's pods. */
const podOf = (c: NextStepContext, f: FindingFacts) => (/^Pod \S+\/(\S+)$/.exec(f.subject)?.[1] ?? `-l ${c.podSelector}`);
const logContainer = (f: FindingFacts) => f.evidence.find((e) => e.kind === 'log' && e.container) ?? f.evidence.find((e) => e.container);

const NOT_READY = ['REVISION_MISSING', 'ISVC_NOT_READY'] as const;
const INGRESS = ['INGRESS_NOT_CONFIGURED', 'ISVC_NOT_READY'] as const;
const POD_LEVEL = [
  'NO_SUPPORTING_RUNTIME',
  'RUNTIME_UNSUPPORTED_MODEL',
  'STORAGE_INITIALIZER_NOT_INJECTED',
  'STORAGE_URI_NOT_FOUND',
  'STORAGE_ACCESS_DENIED',
  'MODEL_FILE_MISSING',
  'OOM_KILLED',
  'IMAGE_DIGEST_RESOLUTION_FAILED',
  'IMAGE_PULL_FAILED',
  'QUOTA_EXCEEDED',
  'POD_UNSCHEDULABLE',
  'MODEL_LOAD_FAILED',
  'STORAGE_INIT_FAILED',
  'CRASH_LOOP',
  'READINESS_PROBE_FAILING',
] as const;

const table = {
  ISVC_NOT_FOUND: {
    severity: 'error',
    title: 'No InferenceService of that name',
    when: 'no InferenceService of that name in the namespace (under any supported API group)',
    evidence: 'namespaces searched; close names that do exist',
    explains: [],
    next: (c) => `kubectl get inferenceservices -n ${c.namespace}: check the name (close names that exist are listed in the evidence)`,
  },
  CANARY_UNHEALTHY: {
    severity: 'error',
    title: 'Canary revision fails while the previous one serves',
    when: 'a canary revision fails while the previous revision still serves traffic',
    evidence: "both revisions; split percent; the canary's own root cause",
    explains: [...POD_LEVEL, ...NOT_READY],
    next: (c, f) => `${edit(c, `set ${c.fieldPath(f.component, 'canaryTrafficPercent')} to 0 to send all traffic back to the last ready revision`)}, then fix the canary`,
  },
  STORAGE_URI_UNSUPPORTED: {
    severity: 'error',
    title: 'Storage URI scheme not supported',
    when: "the storageUri's scheme is not supported by the installed release (e.g. `hf://` before it was added)",
    evidence: "storageUri; the release; the controller's message",
    explains: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED', 'CONTROLLER_RECONCILE_FAILED'],
    next: (c, f) => edit(c, `set ${c.fieldPath(f.component, 'storageUri')} to a scheme this release supports (gs://, s3://, pvc://, https://…), or upgrade KServe`),
  },
  NO_SUPPORTING_RUNTIME: {
    severity: 'error',
    title: 'No serving runtime supports the model format',
    when: 'no ServingRuntime / ClusterServingRuntime supports the model format',
    evidence: 'model format; runtimes found',
    explains: [...NOT_READY, 'MODEL_LOAD_FAILED', 'CONTROLLER_RECONCILE_FAILED'],
    next: (c, f) => `kubectl get clusterservingruntimes; kubectl get servingruntimes -n ${c.namespace}: install a runtime for the model format, or ${edit(c, `set ${c.fieldPath(f.component, 'runtime')} to one that supports it`)}`,
  },
  RUNTIME_UNSUPPORTED_MODEL: {
    severity: 'error',
    title: "The runtime cannot load this model's format or architecture",
    when: "the model server starts but cannot load this model's architecture / format version (runtime too old)",
    evidence: 'the runtime image and version; the log line',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) => edit(c, `set ${c.fieldPath(f.component, 'runtimeVersion')} to a release that loads this model, or export the model in a format version the runtime supports`),
  },
  STORAGE_URI_NOT_FOUND: {
    severity: 'error',
    title: 'Model not found at the storage URI',
    when: 'the storage-initializer fails because the model path does not exist',
    evidence: "storageUri; the init container's log excerpt",
    explains: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED', 'MODEL_FILE_MISSING'],
    next: (c, f) => edit(c, `set ${c.fieldPath(f.component, 'storageUri')} to a path that exists`),
  },
  STORAGE_ACCESS_DENIED: {
    severity: 'error',
    title: 'No access to the model storage',
    when: 'the storage-initializer fails on credentials or permissions (403, AccessDenied, NoCredentials, invalid key)',
    evidence: 'storageUri; service account / secret used; log excerpt',
    explains: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED'],
    next: (c, f) => edit(c, `set ${c.fieldPath(f.component, 'serviceAccountName')} to a service account whose credentials secret can read ${c.fieldPath(f.component, 'storageUri')}`),
  },
  STORAGE_INITIALIZER_NOT_INJECTED: {
    severity: 'error',
    title: 'No storage-initializer in the pod',
    when: 'the pod should download its model but has no storage-initializer init container (the webhook skipped the namespace or pod)',
    evidence: "the pod's annotation; the namespace label or webhook state",
    explains: [...NOT_READY, 'MODEL_FILE_MISSING', 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: (c) => `kubectl get namespace ${c.namespace} --show-labels and kubectl get mutatingwebhookconfigurations: let KServe's pod webhook act on namespace ${c.namespace}, then kubectl delete pod -n ${c.namespace} -l ${c.podSelector}`,
  },
  MODEL_FILE_MISSING: {
    severity: 'error',
    title: 'No model file where the server looks',
    when: 'the model server starts but finds no model file where it looks (e.g. sklearn server `StopIteration` on `/mnt/models`, "model file not found")',
    evidence: 'the path searched; storageUri; log excerpt',
    explains: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: (c, f) => edit(c, `point ${c.fieldPath(f.component, 'storageUri')} at the folder that holds the model file (or upload the model file there)`),
  },
  OOM_KILLED: {
    severity: 'error',
    title: 'Killed for memory',
    when: 'a model container was killed for memory (reason `OOMKilled`, exit code 137, revision reason `ExitCode137`)',
    evidence: 'container; memory limit; restarts; suggested limit',
    explains: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING'],
    next: (c, f) => edit(c, `raise ${c.fieldPath(f.component, 'resources')}.limits.memory (or approve the proposed raise)`),
  },
  IMAGE_DIGEST_RESOLUTION_FAILED: {
    severity: 'error',
    title: 'Knative cannot resolve the image tag to a digest',
    when: 'Knative cannot resolve the image tag to a digest ("failed to resolve image to digest", 401 from a private registry)',
    evidence: 'image; registry; the `config-deployment` setting that would skip it',
    explains: [...NOT_READY, 'IMAGE_PULL_FAILED'],
    next: (c) => `kubectl edit configmap config-deployment -n ${c.knativeNamespace}: add the image's registry to data.registriesSkippingTagResolving (or give the Knative controller pull credentials for it)`,
  },
  IMAGE_PULL_FAILED: {
    severity: 'error',
    title: 'The image cannot be pulled',
    when: 'ErrImagePull / ImagePullBackOff / InvalidImageName',
    evidence: "image; the kubelet's message",
    explains: NOT_READY,
    next: (c, f) => `${edit(c, `fix the image (or its tag) under ${c.fieldPath(f.component, 'image')}`)}; for a private registry add imagePullSecrets to the service account`,
  },
  QUOTA_EXCEEDED: {
    severity: 'error',
    title: 'A quota or LimitRange forbids the pods',
    when: 'a ResourceQuota or LimitRange forbids the pods ("exceeded quota", "forbidden")',
    evidence: 'quota name; used/hard',
    explains: [...NOT_READY, 'POD_UNSCHEDULABLE'],
    next: (c, f) => `kubectl describe resourcequota -n ${c.namespace}: raise the quota, or ${edit(c, `lower ${c.fieldPath(f.component, 'resources')}`)}`,
  },
  POD_UNSCHEDULABLE: {
    severity: 'error',
    title: 'The pod cannot be scheduled',
    when: 'the pod stays Pending: insufficient cpu/memory/GPU, taints, node selectors',
    evidence: "the scheduler's message",
    explains: NOT_READY,
    next: (c, f) => `kubectl describe pod ${podOf(c, f)} -n ${c.namespace} names what no node has: add that capacity, or ${edit(c, `lower ${c.fieldPath(f.component, 'resources')}.requests or relax its nodeSelector / tolerations`)}`,
  },
  // a webhook's refusal is why the object it refused (a VirtualService, a Knative Service) is missing
  ADMISSION_DENIED: {
    severity: 'error',
    title: 'An admission webhook denied an object',
    when: 'an admission webhook denied an object the controller creates for this service (Knative Service, VirtualService, Ingress)',
    evidence: 'the webhook, the object, the denial message',
    explains: [...NOT_READY, 'CONTROLLER_RECONCILE_FAILED', 'INGRESS_NOT_CONFIGURED', 'VIRTUALSERVICE_MISSING', 'GATEWAY_MISSING'],
    next: (c) => `kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations: change what the webhook refused (its message is in the evidence) in inferenceservice ${c.name} -n ${c.namespace}, or the webhook's policy`,
  },
  PROBE_BLOCKED_BY_AUTH: {
    severity: 'error',
    title: 'Ingress probes blocked by auth on the gateway',
    when: "the ingress controller's probes get HTTP 401 or 302 (auth on the Istio ingress gateway, e.g. IAP, oauth2 `UAEX`)",
    evidence: 'the log lines with the status code; the gateway and namespace',
    explains: INGRESS,
    next: () => 'kubectl get authorizationpolicies -n istio-system: exempt Knative\'s probes (header K-Network-Probe) from the gateway\'s auth rule (the fix below), or upgrade Knative Serving to 0.14 or later',
  },
  PROBE_BLOCKED_BY_RBAC: {
    severity: 'error',
    title: 'Ingress probes blocked by Istio RBAC',
    when: 'the probes get HTTP 403 (Istio RBAC / AuthorizationPolicy; a namespace missing from `ClusterRbacConfig`)',
    evidence: 'the log line; the RBAC object that applies; Knative version if older than 0.11.2 / between 0.12 and 0.13 (no best-effort probes)',
    explains: INGRESS,
    next: (c) => `kubectl get authorizationpolicies -n ${c.namespace}: allow requests from knative-serving and istio-system (the fix below), or upgrade Knative Serving to 0.14 or later`,
  },
  GATEWAY_MISSING: {
    severity: 'error',
    title: 'The Istio Gateway does not exist',
    when: "the Istio Gateway that the InferenceService's routes use does not exist",
    evidence: 'gateway namespace/name expected',
    explains: [...INGRESS, 'VIRTUALSERVICE_MISSING'],
    next: () => 'kubectl get gateways -A: create the Gateway named in the evidence, or point the ingress settings of the inferenceservice-config ConfigMap at one that exists',
  },
  VIRTUALSERVICE_MISSING: {
    severity: 'error',
    title: 'A VirtualService on the request path is missing',
    when: "a VirtualService on the request path (top-level or Knative's) is missing",
    evidence: 'which hop of the request flow',
    // the controller's error says why it could not create it
    explains: [...INGRESS, 'CONTROLLER_RECONCILE_FAILED'],
    next: (c) => `kubectl get virtualservices -n ${c.namespace}: the controller creates it; its logs say why it did not (kubectl logs -n kserve deploy/kserve-controller-manager | grep ${c.name})`,
  },
  STORAGE_INIT_FAILED: {
    severity: 'error',
    title: 'The storage-initializer fails',
    when: 'the storage-initializer init container fails (Init:Error, Init:CrashLoopBackOff, non-zero exit); where a more specific code says why, that code is the root cause and this one its consequence',
    evidence: 'exit code; log excerpt',
    explains: [...NOT_READY, 'MODEL_LOAD_FAILED'],
    next: (c, f) => `kubectl logs ${podOf(c, f)} -n ${c.namespace} -c storage-initializer: fix what it reports (usually ${c.fieldPath(f.component, 'storageUri')} or its credentials)`,
  },
  // KServe 0.11 reports any predictor crash as ModelLoadFailed: the crash and its traceback say more
  CRASH_LOOP: {
    severity: 'error',
    title: 'The model container keeps crashing',
    when: 'a model container exits and restarts (CrashLoopBackOff, Error, non-zero exit); where a more specific code says why (`OOM_KILLED`, `MODEL_FILE_MISSING`), that code is the root cause and this one its consequence',
    evidence: 'exit code; restarts; log excerpt of the crash (traceback) from the current or previous instance',
    explains: [...NOT_READY, 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: (c, f) => {
      const log = logContainer(f);
      return `kubectl logs ${podOf(c, f)} -n ${c.namespace}${log?.container ? ` -c ${log.container}` : ''} --previous: fix what the traceback names (the model, its code or ${c.fieldPath(f.component, 'image')})`;
    },
  },
  MODEL_LOAD_FAILED: {
    severity: 'error',
    title: 'The runtime failed to load the model',
    when: 'the runtime reports the model failed to load (`modelStatus` FailedToLoad, `ModelLoadFailed`), or the model server logs it (a signature); a server that logged it before exiting explains its crash loop',
    evidence: 'the reported reason and message',
    explains: [...NOT_READY, 'READINESS_PROBE_FAILING'],
    next: (c) => `kubectl get inferenceservice ${c.name} -n ${c.namespace} -o jsonpath='{.status.modelStatus}' and kubectl logs -n ${c.namespace} -l ${c.podSelector}: fix the model or its format that the runtime refuses`,
  },
  READINESS_PROBE_FAILING: {
    severity: 'error',
    title: 'The container never becomes ready',
    when: 'the container runs but never becomes ready',
    evidence: "probe; the kubelet's message; log excerpt",
    explains: NOT_READY,
    next: (c, f) => `kubectl logs ${podOf(c, f)} -n ${c.namespace}: find why the server does not answer its probe, or ${edit(c, `fix ${c.fieldPath(f.component, 'readinessProbe')}`)}`,
  },
  CONTROLLER_RECONCILE_FAILED: {
    severity: 'error',
    title: 'The controller fails to reconcile the service',
    when: 'the KServe / KFServing controller fails to reconcile this InferenceService (its log names the service with an error; often no status at all)',
    evidence: "the controller's log lines for this service",
    explains: ['ISVC_NOT_READY', 'REVISION_MISSING'],
    next: (c) => `kubectl logs -n kserve deploy/kserve-controller-manager | grep ${c.name}: fix what the controller reports for ${c.namespace}/${c.name}`,
  },
  INGRESS_NOT_CONFIGURED: {
    severity: 'error',
    title: 'Knative reports IngressNotConfigured',
    when: 'Knative Service / Route reports `IngressNotConfigured`',
    evidence: "the condition's message; next checks run",
    explains: ['ISVC_NOT_READY'],
    next: (c) => `kubectl logs -n ${c.knativeNamespace} deploy/networking-istio (or deploy/net-istio-controller) | grep ${c.name}: fix why the ingress is not configured`,
  },
  REVISION_MISSING: {
    severity: 'error',
    title: 'The revision is missing or not ready',
    when: 'Knative Service reports `RevisionMissing` or the latest created revision is not ready',
    evidence: 'revision name, its Ready condition and reason',
    explains: ['ISVC_NOT_READY'],
    next: (c, f) => (f.revision ? `kubectl describe revision ${f.revision} -n ${c.namespace}: its conditions and events say why it is not ready` : `kubectl get revisions -n ${c.namespace} -l ${c.podSelector}: describe the one that is not ready`),
  },
  ISVC_NOT_READY: {
    severity: 'error',
    title: 'The InferenceService is not ready',
    when: "the InferenceService's Ready condition is not True; the root cause only when nothing more specific is visible",
    evidence: 'the conditions that are not True',
    explains: [],
    next: (c) => `kubectl describe inferenceservice ${c.name} -n ${c.namespace}: the conditions and events name the component that is not ready`,
  },
  BOT_FORBIDDEN: {
    severity: 'warning',
    title: "A read the bot's RBAC denied",
    when: 'the API answered 403 to one of the bot\'s reads, so a check could not run',
    evidence: 'the verb/resource/namespace denied; the RBAC rule that would allow it',
    explains: [],
    next: () => "add the RBAC rule shown in the evidence to the bot's ClusterRole (deploy/base/rbac-diagnosis.yaml) and apply it, then diagnose again",
  },
  CLUSTER_UNREACHABLE: {
    severity: 'warning',
    title: 'A check could not reach the cluster',
    when: 'a check could not run because the API could not be reached or answered with a server error',
    evidence: 'the playbook and the error',
    explains: [],
    next: () => 'kubectl get --raw /readyz: once the API server answers, diagnose again',
  },
  KNATIVE_PROBES_NOT_BEST_EFFORT: {
    severity: 'warning',
    title: 'Knative release without best-effort probes',
    when: 'ingress probes fail on a Knative release without best-effort probes (before 0.11.2, or 0.12.x–0.13.x)',
    evidence: 'the `serving.knative.dev/release` label',
    explains: [],
    next: (c) => `kubectl get namespace ${c.knativeNamespace} --show-labels: upgrade Knative Serving to 0.14 or later (or 0.11.2), whose probes are best-effort`,
  },
  // a healthy report opens with the clean bill, then the context
  ISVC_READY: {
    severity: 'info',
    title: 'Ready',
    when: 'Ready=True and nothing else wrong',
    evidence: 'URL, ready revision, age',
    explains: [],
    next: null,
  },
  URL_CLUSTER_LOCAL: {
    severity: 'info',
    title: 'The URL is cluster-local',
    when: 'a Ready Serverless service has a cluster-local URL (`*.svc.cluster.local`): no domain in config-domain (Knative 1.8+ default) or the service is cluster-local',
    evidence: 'the URL; where the domain comes from',
    explains: [],
    next: (c) => `kubectl edit configmap config-domain -n ${c.knativeNamespace}: add the domain to serve (e.g. data: {example.com: ""}) to expose ${c.name} through the ingress gateway, or call it from inside the cluster`,
  },
  RUNTIME_SELECTED: {
    severity: 'info',
    title: 'The runtime KServe chose',
    when: 'a Ready service names no runtime and several serving runtimes fit its model format and protocol',
    evidence: 'the runtimes that fit, their priorities and images; the one that serves it',
    explains: [],
    next: (c, f) => `kubectl edit inferenceservice ${c.name} -n ${c.namespace}: set ${c.fieldPath(f.component, 'runtime')} to pin the runtime`,
  },
  SCALE_TO_ZERO_UNAVAILABLE: {
    severity: 'info',
    title: 'No scale to zero in RawDeployment',
    when: 'a Ready RawDeployment service sets minReplicas 0: its Deployment and HPA keep at least one pod',
    evidence: 'the deployment mode; minReplicas; the HPA',
    explains: [],
    next: (c) => `Scale to zero needs Serverless mode: kubectl edit inferenceservice ${c.name} -n ${c.namespace}: set the annotation serving.kserve.io/deploymentMode: Serverless (Knative installed); in RawDeployment minReplicas 0 counts as 1`,
  },
  TRAFFIC_SPLIT: {
    severity: 'info',
    title: 'Traffic is split',
    when: 'traffic is split between revisions (canary / A-B)',
    evidence: 'revisions and percents',
    explains: [],
    next: null,
  },
  REQUEST_FLOW: {
    severity: 'info',
    title: 'The request flow',
    when: 'the request-flow hops (Gateway → top-level VirtualService → Knative VirtualService → revision Service → pods) and their state',
    evidence: 'one `hop` evidence per hop',
    explains: [],
    next: null,
  },
  TRACING_LINKS: {
    severity: 'info',
    title: 'Metrics and traces',
    when: 'links to the metrics dashboards and traces for this InferenceService, from configured URL templates',
    evidence: 'the links',
    explains: [],
    next: null,
  },
} as const satisfies Record<string, CatalogEntry>;

export type FindingCode = keyof typeof table;

/** Every code `explains` names is a catalog code (checked when compiling). */
type Explained = (typeof table)[FindingCode]['explains'][number];
const explainsCatalogCodes: Explained extends FindingCode ? true : never = true;
void explainsCatalogCodes;

export const CATALOG: Readonly<Record<FindingCode, CatalogEntry & { explains: readonly FindingCode[] }>> = table;

/** The codes, most specific first. */
export const FINDING_CODES = Object.keys(table) as FindingCode[];

export function isFindingCode(value: string): value is FindingCode {
  return Object.prototype.hasOwnProperty.call(table, value);
}

/** 0 for the most specific code. */
export function specificityRank(code: FindingCode): number {
  return FINDING_CODES.indexOf(code);
}
