/**
 * The one catalog of finding codes: for each code its severity, what it means and which evidence a
 * person must see, which less specific codes it explains, and the next step a person takes, as a
 * template filled with the service's real names. The entries are in specificity order (the first
 * entry is the most specific): the root cause of a report is its most specific error.
 *
 * Codes never change meaning; wording around them may. `docs/findings.md` is generated from this
 * table (`npm run docs:findings`), and a test fails when it is stale.
 */
import {
  BOT_FORBIDDEN_NEXT,
  CONTROLLER_RECONCILE_FAILED_NEXT,
  CRASH_LOOP_NEXT,
  GATEWAY_MISSING_NEXT,
  INGRESS_NOT_CONFIGURED_NEXT,
  ISVC_NOT_FOUND_NEXT,
  ISVC_NOT_READY_NEXT,
  MODEL_LOAD_FAILED_NEXT,
  POD_UNSCHEDULABLE_NEXT,
  PROBE_BLOCKED_BY_AUTH_NEXT,
  PROBE_BLOCKED_BY_RBAC_NEXT,
  QUOTA_EXCEEDED_NEXT,
  RAW_INGRESS_NOT_CREATED_NEXT,
  READINESS_PROBE_FAILING_NEXT,
  REVISION_MISSING_NEXT,
  STORAGE_INIT_FAILED_NEXT,
  VIRTUALSERVICE_MISSING_NEXT,
} from './evidence-next-steps.js';
import { editCommand, type ComponentField, type NextStepContext } from './next-step-context.js';
import { byForms, form, podName, refsOfKind } from './next-step-forms.js';
import { FALLBACK_LABEL } from './next-step-quality.js';
import { storageEntryField, storageEntryIn } from './storage-entry.js';

export type Severity = 'error' | 'warning' | 'info';

/** What a next-step template may read of the finding it is for. */
export interface FindingFacts {
  subject: string;
  /** The finding's one line (what it says is wrong). */
  title?: string;
  component?: string;
  revision?: string;
  /** What decided it: a next step is built from these (the line, the object, the field). */
  evidence: ReadonlyArray<{
    kind: string;
    ref?: string;
    text?: string;
    excerpt?: readonly string[];
    container?: string;
    previous?: boolean;
  }>;
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
  /**
   * A failure of the revision's own pods (its runtime, storage, image, scheduling, container): a code
   * that `explainsPodLevel` explains it.
   */
  podLevel?: true;
  /** Named by an LLM runtime's own start-up line (vLLM, the Hugging Face runtime, TGI, SGLang): the model container emits it. */
  llmRuntime?: true;
  /** Its finding also explains every `podLevel` code (a failing canary, a failed rollout: the new revision's pods). */
  explainsPodLevel?: true;
  /**
   * Its findings get a details section of their own in Slack, titled so, after the other findings
   * (the sections in `order`, lowest first), instead of joining "Other findings".
   */
  detailsSection?: { title: string; order: number };
  /** null for codes that need no action (context, a clean bill). */
  next: NextStepTemplate | null;
  /**
   * What the root message says of a service that is not ready with this code as its root cause, when
   * "is not ready" alone would mislead (default "is not ready").
   */
  notReadyVerdict?: string;
  /**
   * What the root message says of a service that reports Ready with this code as its root cause, when
   * "is Ready, but failing" would not say what is wrong (unreachable from outside, a failing canary).
   */
  readyVerdict?: string;
  /**
   * Restarting the pods helps only once this cause is fixed (the spec, the storage, the model): a
   * restart proposed for it says "after the fix" first.
   */
  fixBeforeRestart?: true;
}

/** Where a field of the finding's component lives in this object (the canary's own block for a canary revision). */
/**
 * A field of the finding's component as this object writes it; a model source of a component that lists
 * several (`storageUris`) is the entry the finding's evidence names, with its uri and mountPath.
 */
const at = (c: NextStepContext, f: FindingFacts, field: ComponentField) => {
  const entry = field === 'storageUri' ? storageEntryIn(f.evidence) : undefined;
  return entry ? storageEntryField(entry) : c.fieldPath(f.component, field, f.revision);
};
/** The finding's pod by name, or the service's pods by label when the finding names none. */
const podOf = (c: NextStepContext, f: FindingFacts) => podName(f) ?? `-l ${c.podSelector}`;
/** "kubectl edit inferenceservice NAME -n NS: WHAT" */
const edit = (c: NextStepContext, what: string) => `${editCommand(c)}: ${what}`;

const NOT_READY = ['REVISION_MISSING', 'ISVC_NOT_READY'] as const;
const INGRESS = ['INGRESS_NOT_CONFIGURED', 'ISVC_NOT_READY'] as const;
const table = {
  ISVC_NOT_FOUND: {
    severity: 'error',
    title: 'No InferenceService of that name',
    when: 'no InferenceService of that name in the namespace (under any supported API group)',
    evidence: 'namespaces searched; close names that do exist',
    explains: [],
    next: ISVC_NOT_FOUND_NEXT,
  },
  CANARY_UNHEALTHY: {
    readyVerdict: 'is Ready, but its canary fails',
    severity: 'error',
    title: 'Canary revision fails while the previous one serves',
    when: 'a canary revision fails while the previous revision still serves traffic',
    evidence: "both revisions; split percent; the canary's own root cause",
    explainsPodLevel: true,
    explains: NOT_READY,
    next: (c, f) =>
      `${edit(c, `set ${at(c, f, 'canaryTrafficPercent')} to 0 to send all traffic back to the last ready revision`)}, then fix the canary`,
  },
  ROLLOUT_FAILED: {
    severity: 'error',
    title: 'The new revision failed while the previous one serves',
    when: 'a spec change made a new revision that did not become ready (latest created is not the latest ready) while the previous ready revision still takes the traffic: a failed rollout, not a missing revision',
    evidence: "both revisions; the traffic the previous one takes; the new revision's own cause",
    explainsPodLevel: true,
    explains: NOT_READY,
    next: (c, f) =>
      `fix what revision ${f.revision ?? 'the new revision'} failed on, or roll back: ${edit(c, 'restore the spec the serving revision was made from')}`,
    // Knative keeps routing to the previous ready revision: requests are still answered
    notReadyVerdict: 'is not ready, but its previous revision still serves',
  },
  STORAGE_URI_UNSUPPORTED: {
    fixBeforeRestart: true,
    severity: 'error',
    title: 'Storage URI scheme not supported',
    when: "the storageUri's scheme is not supported by the installed release (e.g. `hf://` before it was added; an `oci://` entry of `storageUris` before KServe 0.19, for which no modelcar is made)",
    evidence: "storageUri (or the storageUris entry); the release; the controller's message or what the pod lacks",
    explains: [
      ...NOT_READY,
      'STORAGE_INIT_FAILED',
      'MODEL_LOAD_FAILED',
      'CONTROLLER_RECONCILE_FAILED',
      'MODEL_FILE_MISSING',
      'CRASH_LOOP',
    ],
    next: (c, f) =>
      edit(
        c,
        `set ${at(c, f, 'storageUri')} to a scheme this release supports (gs://, s3://, pvc://, https://…), or upgrade KServe`,
      ),
  },
  NO_SUPPORTING_RUNTIME: {
    podLevel: true,
    severity: 'error',
    title: 'No serving runtime supports the model format',
    when: 'no ServingRuntime / ClusterServingRuntime supports the model format',
    evidence: 'model format; runtimes found',
    explains: [...NOT_READY, 'MODEL_LOAD_FAILED', 'CONTROLLER_RECONCILE_FAILED'],
    next: (c, f) =>
      `kubectl get clusterservingruntimes; kubectl get servingruntimes -n ${c.namespace}: install a runtime for the model format, or ${edit(c, `set ${at(c, f, 'runtime')} to one that supports it`)}`,
  },
  // LLM runtimes (vLLM, the Hugging Face runtime, TGI, SGLang): a cause named from the server's own line
  GPU_DRIVER_TOO_OLD: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: "The node's NVIDIA driver is older than the image's CUDA",
    when: "the NVIDIA container hook refuses to start the container (`unsatisfied condition: cuda>=X`), or PyTorch reports `The NVIDIA driver on your system is too old`: the image's CUDA needs a newer driver than the node has",
    evidence:
      'the node; the CUDA the image needs and the driver version found; the container state (StartError 128 when the hook refuses)',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      `kubectl get pod ${podOf(c, f)} -n ${c.namespace} -o jsonpath='{.spec.nodeName}': upgrade that node's NVIDIA driver, or ${edit(c, `set ${c.fieldPath(f.component, 'runtimeVersion')} (or the image) to a build for the node's CUDA, or schedule onto newer-driver nodes with ${c.fieldPath(f.component, 'nodeSelector')}`)}`,
  },
  GPU_NOT_VISIBLE: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: 'The model server sees no GPU',
    when: 'the model server finds no CUDA device (`No CUDA GPUs are available`, `Failed to infer device type`, NVML not found, `Found no NVIDIA driver`): no `nvidia.com/gpu` in the limits, or the pod runs without the NVIDIA runtime (RuntimeClass, device plugin)',
    evidence: "the log line; the container's GPU limit; the pod's runtimeClassName and node",
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `set ${c.fieldPath(f.component, 'resources')}.limits nvidia.com/gpu (the device plugin only mounts the GPU and driver into containers that ask for one), and ${c.fieldPath(f.component, 'runtimeClassName')}: nvidia where the NVIDIA runtime is not the node's default`,
      ),
  },
  GPU_DTYPE_UNSUPPORTED: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: "The GPU cannot run the model's dtype",
    when: 'the runtime refuses the dtype on this GPU (bfloat16 needs compute capability 8.0; FP8 needs 8.9)',
    evidence: 'the GPU model and its compute capability; the dtype; the log line',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `add --dtype=half to ${c.fieldPath(f.component, 'args')}, or schedule the predictor onto a GPU with compute capability 8.0 or more (${c.fieldPath(f.component, 'nodeSelector')})`,
      ),
  },
  SHM_TOO_SMALL: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: '/dev/shm is too small for NCCL',
    when: "NCCL (tensor parallelism across the pod's GPUs) cannot create its shared-memory segment in /dev/shm: the container runtime gives 64 MiB unless the pod mounts a memory-backed emptyDir there",
    evidence: "the NCCL line (segment and size); the pod's /dev/shm volume or its absence; the GPU count",
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `add to ${c.fieldPath(f.component, 'volumes')} an emptyDir with medium: Memory and a sizeLimit (e.g. 2Gi), and mount it at /dev/shm in ${c.fieldPath(f.component, 'volumeMounts')}`,
      ),
  },
  TENSOR_PARALLEL_MISMATCH: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: 'Tensor-parallel size does not match the GPUs the pod has',
    when: 'the runtime is started with a tensor-parallel (or world) size larger than the GPUs allocated to the container, or one the model cannot be split by',
    evidence: 'the tensor-parallel size from the log or args; the nvidia.com/gpu limit',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `make --tensor-parallel-size in ${c.fieldPath(f.component, 'args')} equal to ${c.fieldPath(f.component, 'resources')}.limits nvidia.com/gpu (raise the GPUs, or lower the size)`,
      ),
  },
  KV_CACHE_TOO_SMALL: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: "The KV cache cannot hold one request of the model's context length",
    when: "vLLM stops at start: the model's max sequence length (max_model_len, by default the model's own context) needs more KV cache than the GPU memory left after the weights",
    evidence: 'the max sequence length and the tokens (or GiB) the KV cache holds, from the log line',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `add --max-model-len (at most the tokens the KV cache holds, in the evidence) to ${c.fieldPath(f.component, 'args')}, or raise --gpu-memory-utilization or the GPUs in ${c.fieldPath(f.component, 'resources')}`,
      ),
  },
  GPU_OUT_OF_MEMORY: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: 'The GPU runs out of memory while the model loads',
    when: 'CUDA out of memory while the runtime loads the weights, profiles, warms up or allocates the KV cache (not the container memory limit: that is OOM_KILLED)',
    evidence:
      "the CUDA OOM line with the GPU's capacity and what was free; the GPUs allocated; the runtime's memory args",
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `lower --gpu-memory-utilization, --max-model-len or --max-num-seqs in ${c.fieldPath(f.component, 'args')}, or give the model more GPU memory (nvidia.com/gpu in ${c.fieldPath(f.component, 'resources')} with --tensor-parallel-size to match, or a quantized model)`,
      ),
  },
  TRUST_REMOTE_CODE_REQUIRED: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: 'The model ships its own code and the runtime was not allowed to run it',
    when: 'transformers refuses a repository with custom code (`trust_remote_code=True` needed)',
    evidence: 'the repository; the log line; whether the args already pass the flag',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING', 'RUNTIME_UNSUPPORTED_MODEL'],
    next: (c, f) =>
      edit(
        c,
        `after reading the repository's code, add --trust_remote_code (vLLM: --trust-remote-code) to ${c.fieldPath(f.component, 'args')}`,
      ),
  },
  MODEL_HUB_ACCESS_DENIED: {
    podLevel: true,
    llmRuntime: true,
    severity: 'error',
    title: 'The model or tokenizer cannot be fetched from the Hugging Face Hub',
    when: 'the runtime (or the hf:// storage-initializer) is refused by the Hub (401: no or invalid token for a gated / private repo; 403: the token has no access to the gated repo) or may not reach it (offline mode, no network)',
    evidence: 'the repository; the status code or offline message; the token env the container has',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING', 'STORAGE_INIT_FAILED'],
    next: (c, f) =>
      edit(
        c,
        `set HF_TOKEN in ${c.fieldPath(f.component, 'env')} from a Secret (valueFrom.secretKeyRef) whose token has been granted access to the repository`,
      ),
  },
  RUNTIME_UNSUPPORTED_MODEL: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: "The runtime cannot load this model's format or architecture",
    when: "the model server starts but cannot load this model's architecture / format version (runtime too old)",
    evidence: 'the runtime image and version; the log line',
    explains: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
    next: (c, f) =>
      edit(
        c,
        `set ${at(c, f, 'runtimeVersion')} to a release that loads this model, or export the model in a format version the runtime supports`,
      ),
  },
  LOCAL_MODEL_NOT_CACHED: {
    podLevel: true,
    severity: 'error',
    title: "The cached model is not on the pod's node",
    when: "the storageUri is served from KServe's local model cache (LocalModelCache) and the node the pod runs on has no downloaded copy (the cache's `status.nodeStatus` for that node is NodeDownloadError, NodeDownloading, NodeDownloadPending or NodeNotReady, so the pod mounts an empty model directory), or the pod is not scheduled while no node has one",
    evidence:
      "the pod's node; the cache's source URI, node groups, the nodes' states and copies; the node's LocalModelNode `status.modelStatus`; a node group whose claim and volume storage classes differ",
    explains: [
      ...NOT_READY,
      'MODEL_FILE_MISSING',
      'CRASH_LOOP',
      'READINESS_PROBE_FAILING',
      'MODEL_LOAD_FAILED',
      'POD_UNSCHEDULABLE',
    ],
    next: (c, f) =>
      `kubectl get pod ${podOf(c, f)} -n ${c.namespace} -o jsonpath='{.spec.nodeName}', then kubectl get localmodelcaches,localmodelnodes -o yaml and the download Jobs in kserve-localmodel-jobs (label node=that node): fix the failed download, then kubectl delete pod ${podOf(c, f)} -n ${c.namespace}`,
  },
  MODELCAR_FAILED: {
    podLevel: true,
    severity: 'error',
    title: 'The OCI modelcar fails',
    when: "a container KServe runs the oci:// model image as (`modelcar-init`, the `modelcar` sidecar) exits: the image has nothing under /models (`NOK ... Prefetched but modelcar is invalid`), has no shell for the sidecar's `sh -c ln -sf`, or fails otherwise",
    evidence: 'the container, its exit and restarts, the image; its log line',
    explains: [
      ...NOT_READY,
      'MODEL_FILE_MISSING',
      'CRASH_LOOP',
      'READINESS_PROBE_FAILING',
      'MODEL_LOAD_FAILED',
      'STORAGE_INIT_FAILED',
    ],
    next: (c, f) =>
      `kubectl logs ${podOf(c, f)} -n ${c.namespace} -c modelcar-init: the model image must hold the model under /models and a shell; rebuild it, or ${edit(c, `set ${at(c, f, 'storageUri')} to an image that does`)}`,
  },
  STORAGE_URI_NOT_FOUND: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: 'Model not found at the storage URI',
    when: 'the storage-initializer fails because the model path does not exist',
    evidence: "storageUri; the init container's log excerpt",
    explains: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED', 'MODEL_FILE_MISSING'],
    next: (c, f) => edit(c, `set ${at(c, f, 'storageUri')} to a path that exists`),
  },
  STORAGE_ACCESS_DENIED: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: 'No access to the model storage',
    when: 'the storage-initializer fails on credentials or permissions (403, AccessDenied, NoCredentials, invalid key)',
    evidence: 'storageUri; service account / secret used; log excerpt',
    explains: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED'],
    next: (c, f) =>
      edit(
        c,
        `set ${at(c, f, 'serviceAccountName')} to a service account whose credentials secret can read ${at(c, f, 'storageUri')}`,
      ),
  },
  STORAGE_INITIALIZER_NOT_INJECTED: {
    podLevel: true,
    severity: 'error',
    title: 'No storage-initializer in the pod',
    when: 'the pod should download its model but has no storage-initializer init container (the webhook skipped the namespace or pod)',
    evidence: "the pod's annotation; the namespace label or webhook state",
    explains: [...NOT_READY, 'MODEL_FILE_MISSING', 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: (c) =>
      `kubectl get namespace ${c.namespace} --show-labels and kubectl get mutatingwebhookconfigurations: let KServe's pod webhook act on namespace ${c.namespace}, then kubectl delete pod -n ${c.namespace} -l ${c.podSelector}`,
  },
  MODEL_FILE_MISSING: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: 'No model file where the server looks',
    when: 'the model server starts but finds no model file where it looks (e.g. sklearn server `StopIteration` on `/mnt/models`, "model file not found")',
    evidence: 'the path searched; storageUri; log excerpt',
    explains: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: (c, f) =>
      edit(
        c,
        `point ${at(c, f, 'storageUri')} at the folder that holds the model file (or upload the model file there)`,
      ),
  },
  OOM_KILLED: {
    podLevel: true,
    severity: 'error',
    title: 'Killed for memory',
    when: 'a model container was killed for memory (reason `OOMKilled`, exit code 137, revision reason `ExitCode137`)',
    evidence: 'container; memory limit; restarts; suggested limit',
    explains: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING'],
    next: (c, f) => edit(c, `raise ${at(c, f, 'resources')}.limits.memory`),
  },
  IMAGE_DIGEST_RESOLUTION_FAILED: {
    podLevel: true,
    severity: 'error',
    title: 'Knative cannot resolve the image tag to a digest',
    when: 'Knative cannot resolve the image tag to a digest ("failed to resolve image to digest", 401 from a private registry)',
    evidence: 'image; registry; the `config-deployment` setting that would skip it',
    explains: [...NOT_READY, 'IMAGE_PULL_FAILED'],
    next: (c) =>
      `kubectl edit configmap config-deployment -n ${c.knativeNamespace}: add the image's registry to data.registriesSkippingTagResolving (or give the Knative controller pull credentials for it)`,
  },
  IMAGE_PULL_FAILED: {
    podLevel: true,
    severity: 'error',
    title: 'The image cannot be pulled',
    when: 'ErrImagePull / ImagePullBackOff / InvalidImageName',
    evidence: "image; the kubelet's message",
    explains: NOT_READY,
    next: (c, f) =>
      `${edit(c, `fix the image (or its tag) under ${at(c, f, 'image')}`)}; for a private registry add imagePullSecrets to the service account`,
  },
  QUOTA_EXCEEDED: {
    podLevel: true,
    severity: 'error',
    title: 'A quota or LimitRange forbids the pods',
    when: 'a ResourceQuota or LimitRange forbids the pods ("exceeded quota", "forbidden")',
    evidence: 'quota name; used/hard',
    explains: [...NOT_READY, 'POD_UNSCHEDULABLE'],
    next: QUOTA_EXCEEDED_NEXT,
  },
  POD_UNSCHEDULABLE: {
    podLevel: true,
    severity: 'error',
    title: 'The pod cannot be scheduled',
    when: 'the pod stays Pending: insufficient cpu/memory/GPU, taints, node selectors',
    evidence: "the scheduler's message",
    explains: NOT_READY,
    next: POD_UNSCHEDULABLE_NEXT,
  },
  // a webhook's refusal is why the object it refused (a VirtualService, a Knative Service) is missing
  ADMISSION_DENIED: {
    severity: 'error',
    title: 'An admission webhook denied an object',
    when: 'an admission webhook denied an object the controller creates for this service (Knative Service, VirtualService, Ingress)',
    evidence: 'the webhook, the object, the denial message',
    explains: [
      ...NOT_READY,
      'CONTROLLER_RECONCILE_FAILED',
      'INGRESS_NOT_CONFIGURED',
      'VIRTUALSERVICE_MISSING',
      'GATEWAY_MISSING',
    ],
    next: (c) =>
      `kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations: change what the webhook refused (its message is in the evidence) in inferenceservice ${c.name} -n ${c.namespace}, or the webhook's policy`,
  },
  PROBE_BLOCKED_BY_AUTH: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'Ingress probes blocked by auth on the gateway',
    when: "the ingress controller's probes get HTTP 401 or 302 (auth on the Istio ingress gateway, e.g. IAP, oauth2 `UAEX`)",
    evidence: 'the log lines with the status code; the gateway and namespace',
    explains: INGRESS,
    next: PROBE_BLOCKED_BY_AUTH_NEXT,
  },
  PROBE_BLOCKED_BY_RBAC: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'Ingress probes blocked by Istio RBAC',
    when: 'the probes get HTTP 403 (Istio RBAC / AuthorizationPolicy; a namespace missing from `ClusterRbacConfig`)',
    evidence:
      'the log line; the RBAC object that applies; Knative version if older than 0.11.2 / between 0.12 and 0.13 (no best-effort probes)',
    explains: INGRESS,
    next: PROBE_BLOCKED_BY_RBAC_NEXT,
  },
  GATEWAY_MISSING: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'The Istio Gateway does not exist',
    when: "the Istio Gateway that the InferenceService's routes use does not exist",
    evidence: 'gateway namespace/name expected',
    explains: [...INGRESS, 'VIRTUALSERVICE_MISSING'],
    next: GATEWAY_MISSING_NEXT,
  },
  VIRTUALSERVICE_MISSING: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'A VirtualService on the request path is missing',
    when: "a VirtualService on the request path (top-level or Knative's) is missing",
    evidence: 'which hop of the request flow',
    // the controller's error says why it could not create it
    explains: [...INGRESS, 'CONTROLLER_RECONCILE_FAILED'],
    next: VIRTUALSERVICE_MISSING_NEXT,
  },
  STORAGE_INIT_FAILED: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: 'The storage-initializer fails',
    when: 'the storage-initializer init container fails (Init:Error, Init:CrashLoopBackOff, non-zero exit); where a more specific code says why, that code is the root cause and this one its consequence',
    evidence: 'exit code; log excerpt',
    explains: [...NOT_READY, 'MODEL_LOAD_FAILED'],
    next: STORAGE_INIT_FAILED_NEXT,
  },
  // KServe 0.11 reports any predictor crash as ModelLoadFailed: the crash and its traceback say more
  CRASH_LOOP: {
    podLevel: true,
    severity: 'error',
    title: 'The model container keeps crashing',
    when: 'a model container exits and restarts (CrashLoopBackOff, Error, non-zero exit); where a more specific code says why (`OOM_KILLED`, `MODEL_FILE_MISSING`), that code is the root cause and this one its consequence',
    evidence: 'exit code; restarts; log excerpt of the crash (traceback) from the current or previous instance',
    explains: [...NOT_READY, 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
    next: CRASH_LOOP_NEXT,
  },
  MODEL_LOAD_FAILED: {
    podLevel: true,
    fixBeforeRestart: true,
    severity: 'error',
    title: 'The runtime failed to load the model',
    when: 'the runtime reports the model failed to load (`modelStatus` FailedToLoad, `ModelLoadFailed`), or the model server logs it (a signature); a server that logged it before exiting explains its crash loop',
    evidence: 'the reported reason and message',
    explains: [...NOT_READY, 'READINESS_PROBE_FAILING'],
    next: MODEL_LOAD_FAILED_NEXT,
  },
  READINESS_PROBE_FAILING: {
    podLevel: true,
    severity: 'error',
    title: 'The container never becomes ready',
    when: 'the container runs but never becomes ready',
    evidence: "probe; the kubelet's message; log excerpt",
    explains: NOT_READY,
    next: READINESS_PROBE_FAILING_NEXT,
  },
  RAW_INGRESS_NOT_CREATED: {
    severity: 'error',
    title: 'The controller cannot create the RawDeployment Ingress / HTTPRoute',
    when: 'a RawDeployment (Standard) service has no Ingress / HTTPRoute (or nothing at all) and the controller cannot make one: the API version it writes (Ingress networking.k8s.io/v1; HTTPRoute gateway.networking.k8s.io/v1 with enableGatewayApi; or the one its refusal names) is not among those the cluster serves (discovery), or the `ingress` key of inferenceservice-config lacks a key the controller requires',
    evidence:
      "the controller's refusal; the versions the cluster serves of that group, or the ingress keys set and missing",
    explains: ['CONTROLLER_RECONCILE_FAILED', 'ISVC_NOT_READY', 'REVISION_MISSING'],
    next: RAW_INGRESS_NOT_CREATED_NEXT,
  },
  RAW_INGRESS_NO_CLASS: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'No ingress controller serves the RawDeployment Ingress',
    when: "a RawDeployment (Standard) service's Ingress has no address and its `spec.ingressClassName` names no IngressClass that exists (or it names none and no IngressClass is marked default): KServe writes the class from `ingressClassName` in the `ingress` key of inferenceservice-config and marks the service Ready regardless",
    evidence:
      "the Ingress's class and empty load-balancer status; the cluster's IngressClasses; the config's ingressClassName",
    explains: ['ISVC_NOT_READY'],
    next: (c) =>
      `kubectl get ingressclasses; kubectl get ingress -n ${c.namespace} ${c.name}: create the IngressClass the Ingress names, or set "ingressClassName" in the ingress key of the inferenceservice-config ConfigMap (kubectl get configmap -A | grep inferenceservice-config) to a class that exists`,
  },
  CONTROLLER_RECONCILE_FAILED: {
    severity: 'error',
    title: 'The controller fails to reconcile the service',
    when: 'the KServe / KFServing controller fails to reconcile this InferenceService (its log names the service with an error; often no status at all)',
    evidence: "the controller's log lines for this service",
    explains: ['ISVC_NOT_READY', 'REVISION_MISSING'],
    next: CONTROLLER_RECONCILE_FAILED_NEXT,
  },
  INGRESS_NOT_CONFIGURED: {
    readyVerdict: 'is Ready, but unreachable',
    severity: 'error',
    title: 'Knative reports IngressNotConfigured',
    when: 'Knative Service / Route reports `IngressNotConfigured`',
    evidence: "the condition's message; next checks run",
    explains: ['ISVC_NOT_READY'],
    next: INGRESS_NOT_CONFIGURED_NEXT,
  },
  REVISION_MISSING: {
    severity: 'error',
    title: 'The revision is missing or not ready',
    when: 'Knative Service reports `RevisionMissing` or the latest created revision is not ready',
    evidence: 'revision name, its Ready condition and reason',
    explains: ['ISVC_NOT_READY'],
    next: REVISION_MISSING_NEXT,
  },
  // KServe's LLMInferenceService (llmisvc, 0.16+): its conditions, the objects it creates, its router
  LLM_CONFIG_MERGE_FAILED: {
    severity: 'error',
    title: "The LLMInferenceService's configs could not be merged",
    when: 'PresetsCombined is False (ConfigNotFound, CombineBaseError, InvalidRenderedConfig): a baseRefs / well-known LLMInferenceServiceConfig is missing or does not merge; the controller stops before creating anything, and Ready (which in 0.16-0.20 does not roll it up) may still read True from older status',
    evidence: "PresetsCombined's reason and message; the configs named; the controller's log line",
    explains: [
      'LLMISVC_NOT_READY',
      'LLM_WORKLOAD_NOT_READY',
      'LLM_ROUTE_NOT_ACCEPTED',
      'LLM_INFERENCE_POOL_NOT_READY',
      'CONTROLLER_RECONCILE_FAILED',
    ],
    next: (c) =>
      `kubectl get llminferenceserviceconfigs -A: create the config the condition names, or remove it from spec.baseRefs of llminferenceservice ${c.name} -n ${c.namespace}`,
  },
  LLM_GATEWAY_NOT_READY: {
    severity: 'error',
    title: 'The Gateway in front of the LLMInferenceService is not ready',
    when: "a Gateway the service routes through (spec.router.gateway.refs, or the managed HTTPRoute's parent) is missing, or its Accepted / Programmed condition is not True (no controller for its GatewayClass, no address)",
    evidence: "the Gateway's conditions or its absence; the GatewayClass's controller; GatewaysReady",
    explains: ['LLMISVC_NOT_READY', 'LLM_ROUTE_NOT_ACCEPTED', 'LLM_INFERENCE_POOL_NOT_READY'],
    next: (c) =>
      `kubectl get gateways -A; kubectl get gatewayclass: make the Gateway that llminferenceservice ${c.name} -n ${c.namespace} routes through exist and be Programmed`,
  },
  LLM_ROUTE_NOT_ACCEPTED: {
    severity: 'error',
    title: "The LLMInferenceService's HTTPRoute is not accepted",
    when: "an HTTPRoute of the service has a parent whose Accepted or ResolvedRefs condition is False, or no Gateway controller wrote its status at all; the router's InferencePool then waits for a gateway (WaitingForGateway)",
    evidence: "the route's parent conditions (Accepted, ResolvedRefs) with reason and message; HTTPRoutesReady",
    explains: ['LLMISVC_NOT_READY', 'LLM_INFERENCE_POOL_NOT_READY'],
    next: (c) =>
      `kubectl get httproute -n ${c.namespace} -o yaml: fix what the route's parent condition says (parentRefs, backendRefs, listener allowedRoutes) for llminferenceservice ${c.name}`,
  },
  LLM_WORKER_GROUP_SHORT: {
    severity: 'error',
    title: 'A multi-node worker group is short of pods',
    when: "a LeaderWorkerSet of the service has fewer ready groups than replicas: a group's leader or worker pods are missing, pending or not ready (a group serves only when all its pods do); or an InferenceService's `workerSpec` head waits for a worker pod that is missing, pending, on another image or not ready",
    evidence:
      "the LeaderWorkerSet (replicas, size, readyReplicas); each short group with its pods and their state; for workerSpec, the worker pod (or the worker Deployment's events) and the head's waiting line",
    explains: ['LLMISVC_NOT_READY', 'LLM_WORKLOAD_NOT_READY'],
    next: (c) =>
      `kubectl get pods -n ${c.namespace} -l app.kubernetes.io/name=${c.name} -o wide: get every pod of each group scheduled and ready`,
  },
  LLM_INFERENCE_POOL_NOT_READY: {
    severity: 'error',
    title: "The LLMInferenceService's InferencePool or endpoint picker is not ready",
    when: 'InferencePoolReady or SchedulerWorkloadReady is False: the InferencePool is missing or no Gateway accepted it, or the endpoint picker (EPP) Deployment has no available pod',
    evidence: "the InferencePool's parent conditions; the EPP Deployment and its pods; the condition's message",
    explains: ['LLMISVC_NOT_READY'],
    next: (c) =>
      `kubectl get inferencepools,deployments -n ${c.namespace} -l app.kubernetes.io/name=${c.name}: fix the endpoint picker or the pool's gateway`,
  },
  LLM_WORKLOAD_NOT_READY: {
    severity: 'error',
    title: "The LLMInferenceService's model server workload is not ready",
    when: 'MainWorkloadReady / WorkerWorkloadReady / PrefillWorkloadReady is False, or its Deployment has fewer available replicas than wanted, and nothing more specific is visible in its pods',
    evidence: 'the workload Deployment or LeaderWorkerSet; its pods and their state; the condition',
    explains: ['LLMISVC_NOT_READY'],
    next: byForms(
      form(
        'fallback: the workload Deployment and its pods, none of which shows a known cause',
        (f) => refsOfKind(f, ['Deployment'])[0]?.name,
        (c, f, deployment) => {
          const pod = refsOfKind(f, ['Pod']).find((p) => p.name.startsWith(`${deployment}-`))?.name;
          return `${FALLBACK_LABEL} no pod of ${deployment} shows a cause the diagnosis knows; kubectl describe pods -n ${c.namespace} -l app.kubernetes.io/name=${c.name},kserve.io/component=workload and kubectl logs -n ${c.namespace} ${pod ?? `deploy/${deployment}`} -c main show where the model server stops`;
        },
        [
          { kind: 'field', ref: 'Deployment ns/svc-kserve', text: 'replicas 1, availableReplicas 0' },
          { kind: 'field', ref: 'Pod ns/svc-kserve-7d9f8-x2x4q', text: 'Running: main: running, not ready' },
        ],
      ),
      form(
        'fallback: the workload was not read',
        () => true,
        (c) =>
          `${FALLBACK_LABEL} the workload's pods: kubectl get pods -n ${c.namespace} -l app.kubernetes.io/name=${c.name}; kubectl logs -n ${c.namespace} -l app.kubernetes.io/name=${c.name} -c main show why the model server does not start`,
      ),
    ),
  },
  LLMISVC_NOT_READY: {
    severity: 'error',
    title: 'The LLMInferenceService is not ready',
    when: "the LLMInferenceService's Ready condition is not True; the root cause only when nothing more specific is visible",
    evidence: 'the conditions that are not True, as the controller rolls them up',
    explains: [],
    next: (c) =>
      `kubectl describe llminferenceservice ${c.name} -n ${c.namespace}: the sub-conditions name the workload or router part that is not ready`,
  },
  LLM_GROUP_ROUTES_UNREADY_MEMBER: {
    severity: 'error',
    title: 'A routing group still sends traffic to a member that is not ready',
    when: "a member of the LLMInferenceService's routing group (`spec.router.route.group`, KServe 0.20), or the service itself, is not Ready but still routable by the controller's rule (RouterReady True and a ready replica in every workload) and has a weight above 0: it keeps its share of the group's traffic",
    evidence:
      "the member's Ready condition and its workloads' ready replicas; its weight against the group's total; the members that are Ready and take the rest",
    explains: [],
    readyVerdict: 'is Ready, but its traffic split still sends requests to a member that is not ready',
    next: (c, f) => {
      const member = refsOfKind(f, ['LLMInferenceService']).find((r) => r.name !== c.name)?.name ?? c.name;
      return `kubectl patch llminferenceservice ${member} -n ${c.namespace} --type merge -p '{"spec":{"router":{"route":{"weight":0}}}}' takes it out of the split while it is fixed; set its weight back once it is Ready`;
    },
  },
  LLM_GROUP_MEMBER_DIVERGENT: {
    severity: 'error',
    title: 'A routing group member serves other model names and is left out of the split',
    when: "the LLMInferenceService is in a routing group (`spec.router.route.group`, KServe 0.20) and another member serves another model set (status.addresses[].models, else spec.model.name and its LoRA adapters): the controller leaves it out of this service's HTTPRoute, so the weights are not what is routed (GroupDegraded=True, MemberDivergence, outside the Ready rollup)",
    evidence: "each member's model names and weight; GroupDegraded; the members this service's route splits over",
    explains: [],
    readyVerdict: 'is Ready, but its traffic split leaves out a member that serves other model names',
    next: (c, f) => {
      const member = refsOfKind(f, ['LLMInferenceService']).find((r) => r.name !== c.name)?.name;
      return `every member of the group must serve the same model names: kubectl get llminferenceservice -n ${c.namespace} -o custom-columns=NAME:.metadata.name,GROUP:.spec.router.route.group,MODEL:.spec.model.name,WEIGHT:.spec.router.route.weight, then set spec.model.name of ${member ?? 'the divergent member'} to the name ${c.name} serves (or take it out of the group)`;
    },
  },
  ISVC_NOT_READY: {
    severity: 'error',
    title: 'The InferenceService is not ready',
    when: "the InferenceService's Ready condition is not True; the root cause only when nothing more specific is visible",
    evidence: 'the conditions that are not True',
    explains: [],
    next: ISVC_NOT_READY_NEXT,
  },
  BOT_FORBIDDEN: {
    severity: 'warning',
    title: "A read the bot's RBAC denied",
    when: "the API answered 403 to one of the bot's reads, so a check could not run",
    evidence: 'the verb/resource/namespace denied; the RBAC rule that would allow it',
    explains: [],
    next: BOT_FORBIDDEN_NEXT,
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
    next: (c) =>
      `kubectl get namespace ${c.knativeNamespace} --show-labels: upgrade Knative Serving to 0.14 or later (or 0.11.2), whose probes are best-effort`,
  },
  // a healthy report opens with the clean bill, then the context
  ISVC_STOPPED: {
    severity: 'info',
    title: 'Stopped on purpose',
    when: 'the InferenceService carries `serving.kserve.io/stop: "true"` (KServe 0.15+) or `Stopped=True`: KServe removed its workloads; it is not ready because it is stopped, not broken (also: being stopped, or resuming)',
    evidence:
      'the annotation and who set it (the managedFields entry: manager, operation, time); the Stopped, PredictorReady and Ready conditions; the deployment mode',
    explains: ['ISVC_NOT_READY'],
    next: (c) =>
      `To serve again: kubectl annotate inferenceservice ${c.name} -n ${c.namespace} serving.kserve.io/stop=false --overwrite`,
  },
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
    next: (c) =>
      `kubectl edit configmap config-domain -n ${c.knativeNamespace}: add the domain to serve (e.g. data: {example.com: ""}) to expose ${c.name} through the ingress gateway, or call it from inside the cluster`,
  },
  RUNTIME_SELECTED: {
    severity: 'info',
    title: 'The runtime KServe chose',
    when: 'a Ready service names no runtime and several serving runtimes fit its model format and protocol',
    evidence: 'the runtimes that fit, their priorities and images; the one that serves it',
    explains: [],
    next: (c, f) => edit(c, `set ${at(c, f, 'runtime')} to pin the runtime`),
  },
  SCALE_TO_ZERO_UNAVAILABLE: {
    severity: 'info',
    title: 'No scale to zero in RawDeployment',
    when: 'a Ready RawDeployment service sets minReplicas 0: its Deployment and HPA keep at least one pod',
    evidence: 'the deployment mode; minReplicas; the HPA',
    explains: [],
    next: (c) =>
      `Scale to zero needs Serverless mode: ${edit(c, 'set the annotation serving.kserve.io/deploymentMode: Serverless (Knative installed); in RawDeployment minReplicas 0 counts as 1')}`,
  },
  LLMISVC_SAME_NAME: {
    severity: 'info',
    title: 'An LLMInferenceService has the same name',
    when: 'an InferenceService and an LLMInferenceService of the same name are in the namespace: the InferenceService is diagnosed',
    evidence: 'both API versions',
    explains: [],
    next: (c) =>
      `/isvc diagnose ${c.namespace}/${c.name} --kind llmisvc (CLI: --kind llmisvc) diagnoses the LLMInferenceService`,
  },
  TRAFFIC_SPLIT: {
    detailsSection: { title: 'Traffic split', order: 2 },
    severity: 'info',
    title: 'Traffic is split',
    when: 'traffic is split between revisions (canary / A-B)',
    evidence: 'revisions and percents',
    explains: [],
    next: null,
  },
  REQUEST_FLOW: {
    detailsSection: { title: 'Request flow', order: 1 },
    severity: 'info',
    title: 'The request flow',
    when: 'the request-flow hops (Gateway → top-level VirtualService → Knative VirtualService → revision Service → pods) and their state',
    evidence: 'one `hop` evidence per hop',
    explains: [],
    next: null,
  },
  TRACING_LINKS: {
    detailsSection: { title: 'Metrics and traces', order: 3 },
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

/** The codes, most specific first. */
export const FINDING_CODES = Object.keys(table) as FindingCode[];

const codesWhere = (has: (entry: CatalogEntry) => boolean): FindingCode[] =>
  FINDING_CODES.filter((code) => has(table[code]));

/** The codes of a revision's own pods' failures (`podLevel`), most specific first. */
export const POD_LEVEL_CODES = codesWhere((e) => e.podLevel === true);
/** What an LLM runtime's own start-up line names (`llmRuntime`): the model container emits them. */
export const LLM_RUNTIME_CODES = codesWhere((e) => e.llmRuntime === true);

/** The details sections of their own (`detailsSection`), in their order, with the codes each shows. */
export const DETAILS_SECTIONS: ReadonlyArray<{ title: string; codes: readonly FindingCode[] }> = (() => {
  const sections = new Map<string, { order: number; codes: FindingCode[] }>();
  for (const code of FINDING_CODES) {
    const section = (table[code] as CatalogEntry).detailsSection;
    if (!section) continue;
    const held = sections.get(section.title) ?? { order: section.order, codes: [] };
    sections.set(section.title, { order: Math.min(held.order, section.order), codes: [...held.codes, code] });
  }
  return [...sections].sort(([, a], [, b]) => a.order - b.order).map(([title, { codes }]) => ({ title, codes }));
})();

/** The catalog, with `explains` whole: an entry that `explainsPodLevel` explains every pod-level code first. */
export const CATALOG: Readonly<Record<FindingCode, CatalogEntry & { explains: readonly FindingCode[] }>> =
  Object.fromEntries(
    FINDING_CODES.map((code) => {
      const entry: CatalogEntry & { explains: readonly FindingCode[] } = table[code];
      return [code, entry.explainsPodLevel ? { ...entry, explains: [...POD_LEVEL_CODES, ...entry.explains] } : entry];
    }),
  ) as Record<FindingCode, CatalogEntry & { explains: readonly FindingCode[] }>;

export function isFindingCode(value: string): value is FindingCode {
  return Object.hasOwn(table, value);
}

/** 0 for the most specific code. */
export function specificityRank(code: FindingCode): number {
  return FINDING_CODES.indexOf(code);
}

/** Whether a restart proposed for this finding code helps only once its cause is fixed. */
export const restartWaitsForFix = (code: string | null): boolean =>
  code !== null && Object.hasOwn(CATALOG, code) && CATALOG[code as FindingCode].fixBeforeRestart === true;
