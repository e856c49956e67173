/**
 * The next steps of the codes whose fix depends on what their evidence says, as forms (see
 * next-step-forms.ts): each form reads the line or object that decided the finding and names what
 * it found; the last form of each code is its labelled fallback, for when that evidence was not
 * readable, and names the command that reads it.
 */
import type { FindingFacts } from './catalog.js';
import { editCommand, type ComponentField, type NextStepContext } from './next-step-context.js';
import {
  byForms,
  form,
  lastErrorLine,
  linesOf,
  logsUnreadable,
  matchIn,
  podName,
  refsOfKind,
} from './next-step-forms.js';
import { FALLBACK_LABEL } from './next-step-quality.js';
import { CLOSE_NAMES_PREFIX, OTHER_NAMESPACES_PREFIX } from './not-found-alternatives.js';

const at = (c: NextStepContext, f: FindingFacts, field: ComponentField) => c.fieldPath(f.component, field, f.revision);
const edit = (c: NextStepContext, what: string) => `${editCommand(c)}: ${what}`;
const pod = (c: NextStepContext, f: FindingFacts) => podName(f) ?? `-l ${c.podSelector}`;
const containerOf = (f: FindingFacts) =>
  f.evidence.find((e) => e.kind === 'log' && e.container)?.container ?? f.evidence.find((e) => e.container)?.container;
const quote = (line: string) => `"${line.length > 160 ? `${line.slice(0, 157)}…` : line}"`;

/** How a crash log ends, read as the change it asks for. */
export const CRASH_LOOP_NEXT = byForms(
  form(
    'exec format error: the image is built for another CPU architecture than the node',
    (f) => matchIn(f, /exec (\S+): exec format error/),
    (c, f, m) =>
      `${m[1]} in ${at(c, f, 'image')} is built for another CPU architecture than the node it runs on (exec format error): use an image built for the node's architecture (a multi-arch image), or run the predictor on nodes of the image's architecture (nodeSelector kubernetes.io/arch)`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ['exec /usr/bin/python3: exec format error'] }],
  ),
  form(
    "the node's NVIDIA driver is older than the CUDA the image needs",
    (f) =>
      matchIn(
        f,
        /CUDA driver version is insufficient for CUDA runtime version|NVIDIA driver on your system is too old[^\n]*|unsatisfied condition: cuda>=[\d.]+/,
      ),
    (c, f, m) =>
      `The node's NVIDIA driver is older than the CUDA in ${at(c, f, 'image')} (${quote(m[0])}): upgrade the GPU nodes' driver, or use an image built for the CUDA the driver supports (nvidia-smi on the node shows it)`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ['CUDA driver version is insufficient for CUDA runtime version'] }],
  ),
  form(
    'ModuleNotFoundError / ImportError: a Python package missing from the image',
    (f) => matchIn(f, /(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'/),
    (c, f, m) =>
      `The image in ${at(c, f, 'image')} lacks the Python module ${m[1]} (${quote(m[0])}): add the package that provides ${(m[1] ?? '').split('.')[0]} to the image, push it under a new tag and ${edit(c, `set ${at(c, f, 'image')} to it`)}`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ["ModuleNotFoundError: No module named 'lightgbm'"] }],
  ),
  form(
    'KeyError on an upper-case name: an environment variable the code reads and the container lacks',
    (f) => matchIn(f, /KeyError: '([A-Z][A-Z0-9_]+)'/),
    (c, f, m) =>
      `The code reads the environment variable ${m[1]}, which the container does not set (${quote(m[0])}): ${edit(c, `add {name: ${m[1]}, value: …} to ${at(c, f, 'env')}`)}`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ["KeyError: 'LABELS_URL'"] }],
  ),
  form(
    'the exception line that ends the crash log',
    (f) => lastErrorLine(f),
    (c, f, line) =>
      `kubectl logs ${pod(c, f)} -n ${c.namespace}${containerOf(f) ? ` -c ${containerOf(f)}` : ''} --previous ends with ${quote(line)}: change the model, the code or ${at(c, f, 'image')} so that it no longer raises this`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ['ValueError: unsupported pickle protocol: 5'] }],
  ),
  form(
    'fallback: no log of the crash was readable',
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} the log of the crashed container (${logsUnreadable(f) ?? 'none was read'}): kubectl logs ${pod(c, f)} -n ${c.namespace}${containerOf(f) ? ` -c ${containerOf(f)}` : ''} --previous shows the error that ends it`,
  ),
);

/** The model server's refusal, quoted; its log when none was read. */
export const MODEL_LOAD_FAILED_NEXT = byForms(
  form(
    "the model server's error line",
    (f) => lastErrorLine(f),
    (c, f, line) =>
      `The runtime refuses the model at ${at(c, f, 'storageUri')} with ${quote(line)}: change the model (its format or the library version that saved it) or ${at(c, f, 'runtimeVersion')} so that they match`,
    [{ kind: 'log', ref: 'Pod ns/pod', excerpt: ['ValueError: Unsupported model format'] }],
  ),
  form(
    "fallback: the model server's log was not read",
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} the model server's log (${logsUnreadable(f) ?? 'only the status was read'}): kubectl logs -n ${c.namespace} -l ${c.podSelector} -c kserve-container shows why it refused the model at ${at(c, f, 'storageUri')}`,
  ),
);

/** The storage-initializer's last error; its log when it could not be read or its pod is gone. */
export const STORAGE_INIT_FAILED_NEXT = byForms(
  form(
    "the storage-initializer's error line",
    (f) => lastErrorLine(f),
    (c, f, line) =>
      `The download of ${at(c, f, 'storageUri')} fails with ${quote(line)} (kubectl logs ${pod(c, f)} -n ${c.namespace} -c storage-initializer): correct the path, the credentials or the network access that line names`,
    [
      {
        kind: 'log',
        ref: 'Pod ns/pod',
        excerpt: ['RuntimeError: Failed to fetch model. No model found in gs://bucket/model.'],
      },
    ],
  ),
  form(
    'fallback: the log was not readable (forbidden, or the pod is gone)',
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} the storage-initializer's log (${logsUnreadable(f) ?? 'no pod of it is left to read'}): kubectl logs ${pod(c, f)} -n ${c.namespace} -c storage-initializer --previous names why the download of ${at(c, f, 'storageUri')} failed; with no pod left, redeploy (kubectl delete pod -n ${c.namespace} -l ${c.podSelector}, or a new revision) and read it while it runs`,
  ),
);

/** Which container probes which, and what the probed server logs. */
export const READINESS_PROBE_FAILING_NEXT = byForms(
  form(
    "an injected sidecar's probe (queue-proxy, agent) of the server's port, and the server's last log line",
    (f) => {
      const probe = matchIn(f, /^(queue-proxy|agent|istio-proxy) probes (\S+) for [^:]+:.*?"port":\s*"?(\d+)/);
      return probe ? { probe, last: f.evidence.find((e) => e.kind === 'log')?.excerpt?.at(-1) } : undefined;
    },
    (c, f, { probe, last }) =>
      `${probe[1]} (injected, not your probe) checks port ${probe[3]} for ${probe[2]}, and the server there never answers${last ? `; its log ends with ${quote(last.replace(/^\S+Z\s+/, ''))}` : ''}: make ${probe[2]} finish starting and listen on ${probe[3]} (kubectl logs ${pod(c, f)} -n ${c.namespace} -c ${probe[2]})`,
    [
      {
        kind: 'probe',
        ref: 'Pod ns/pod',
        text: 'queue-proxy probes kserve-container for Knative: {"tcpSocket":{"port":8080}}',
      },
      {
        kind: 'log',
        ref: 'Pod ns/pod',
        excerpt: ['INFO text_generation_launcher: Waiting for shard to be ready... rank=0'],
      },
    ],
  ),
  form(
    "the container's own readiness probe",
    (f) => matchIn(f, /(\S+) readiness probe: (.*)/),
    (c, f, m) =>
      `${m[1]}'s own probe (${m[2]}) fails: ${edit(c, `make ${at(c, f, 'readinessProbe')} match the path and port the server answers on`)}, or make the server answer it`,
    [{ kind: 'probe', ref: 'Pod ns/pod', text: 'kserve-container readiness probe: httpGet /ready port 8080' }],
  ),
  form(
    'fallback: which probe fails was not readable',
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} which probe fails and what the server logs: kubectl describe pod ${pod(c, f)} -n ${c.namespace} (the Unhealthy events name the probing container) and kubectl logs ${pod(c, f)} -n ${c.namespace}`,
  ),
);

/** The quota, the resource the pod asks for and what is used. */
export const QUOTA_EXCEEDED_NEXT = byForms(
  form(
    'the FailedCreate message: quota, requested, used, limited',
    (f) => matchIn(f, /exceeded quota: ([\w.-]+), requested: (.+?), used: (.+?), limited: ([^\s(]+(?:,[^\s(]+)*)/),
    (c, f, m) =>
      `kubectl edit resourcequota ${m[1]} -n ${c.namespace}: raise its hard ${(m[4] ?? '').replace(/=[^,]+/g, '')} (the pod asks ${m[2]}; used ${m[3]} of ${m[4]}), or ${edit(c, `lower ${at(c, f, 'resources')} to fit`)}`,
    [
      {
        kind: 'event',
        ref: 'ReplicaSet ns/rs',
        text: 'exceeded quota: compute-resources, requested: limits.memory=4Gi, used: limits.memory=8Gi, limited: limits.memory=8Gi',
      },
    ],
  ),
  form(
    "a quota's refusal that names the resource it requires",
    (f) => matchIn(f, /exceeded quota: ([\w.-]+), must specify ([\w.,]+)/),
    (c, f, m) =>
      `ResourceQuota ${m[1]} requires ${m[2]} on every container: ${edit(c, `set ${m[2]} in ${at(c, f, 'resources')}`)}, and for the containers Knative injects (queue-proxy) set them in the config-deployment ConfigMap of ${c.knativeNamespace}`,
  ),
  form(
    'fallback: the refusal was not read',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the quota's refusal: kubectl get events -n ${c.namespace} --field-selector reason=FailedCreate and kubectl describe resourcequota -n ${c.namespace} name the quota and what the pod asks`,
  ),
);

/** What the scheduler says no node has. */
export const POD_UNSCHEDULABLE_NEXT = byForms(
  form(
    "the scheduler's message",
    (f) => matchIn(f, /\d+\/\d+ nodes are available: ([^"]+?)\.*(?:\s*\(x\d+\))?$/),
    (c, f, m) => {
      const why = m[1] ?? '';
      const taint = /untolerated taint \{?([^}:]+)(?::\s*([^}]*))?\}?/.exec(why);
      if (taint)
        return `The nodes carry a taint the pod does not tolerate (${quote(why)}): ${edit(c, `add a toleration for ${taint[1]} to ${at(c, f, 'tolerations')}`)}, or remove the taint from a node`;
      const short = [...why.matchAll(/Insufficient ([\w./-]+)/g)].map((x) => x[1]);
      if (short.length)
        return `No node has the ${short.join(', ')} the pod requests free (${quote(why)}): add a node with more ${short.join(', ')} (or free some), or ${edit(c, `lower ${at(c, f, 'resources')}.requests`)}`;
      return `The scheduler places the pod on no node: ${quote(why)}: ${edit(c, `relax ${at(c, f, 'nodeSelector')} / ${at(c, f, 'tolerations')}`)} to match a node, or add such a node`;
    },
    [{ kind: 'event', ref: 'Pod ns/pod', text: '0/1 nodes are available: 1 Insufficient memory.' }],
  ),
  form(
    "fallback: the scheduler's message was not read",
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} the scheduler's message: kubectl describe pod ${pod(c, f)} -n ${c.namespace} (its FailedScheduling event says which resource, taint or selector no node satisfies)`,
  ),
);

/** The object that answers the probes, by the kind this cluster's Istio has. */
export const PROBE_BLOCKED_BY_AUTH_NEXT = byForms(
  form(
    'the auth object on the gateway (EnvoyFilter, Policy, RequestAuthentication, AuthorizationPolicy)',
    (f) => refsOfKind(f, ['EnvoyFilter', 'Policy', 'RequestAuthentication', 'AuthorizationPolicy'])[0],
    (_c, f, o) =>
      `kubectl edit ${o.kind.toLowerCase()} ${o.name}${o.ns ? ` -n ${o.ns}` : ''}: exempt Knative's probes (the K-Network-Probe header, paths / and /healthz) from the auth it applies on the gateway${knativeUpgrade(f)}`,
    [{ kind: 'field', ref: 'EnvoyFilter istio-system/authn-filter' }],
  ),
  form(
    'fallback: no auth object was readable',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the auth object on the ingress gateway: kubectl get envoyfilters,requestauthentications,authorizationpolicies,policies.authentication.istio.io -n istio-system (the kinds this Istio serves) shows which one answers the probes of ${c.name}`,
  ),
);

/** The Istio RBAC object that answers 403, by the kind this cluster's Istio has. */
export const PROBE_BLOCKED_BY_RBAC_NEXT = byForms(
  form(
    'an AuthorizationPolicy in the namespace (Istio 1.4+)',
    (f) => refsOfKind(f, ['AuthorizationPolicy'])[0],
    (c, f, o) =>
      `kubectl edit authorizationpolicy ${o.name} -n ${o.ns ?? c.namespace}: add a rule that allows the probe paths (to: operation: paths: ["/healthz", "/metrics", "/wait-for-drain"]) and requests from the knative-serving and istio-system namespaces${knativeUpgrade(f)}`,
    [{ kind: 'field', ref: 'AuthorizationPolicy ns/ns-owner-access-istio' }],
  ),
  form(
    'ClusterRbacConfig / ServiceRoleBinding (Istio RBAC before 1.4)',
    (f) =>
      refsOfKind(f, ['ServiceRoleBinding', 'ServiceRole'])[0] ?? refsOfKind(f, ['ClusterRbacConfig', 'RbacConfig'])[0],
    (c, f, o) =>
      `Istio RBAC covers namespace ${c.namespace} (ClusterRbacConfig) and ${o.kind} ${o.name} lets only its subjects in: add a ServiceRole and ServiceRoleBinding in ${c.namespace} that allow requests from the knative-serving and istio-system namespaces, or take ${c.namespace} out of the ClusterRbacConfig's inclusion list (kubectl edit clusterrbacconfig default)${knativeUpgrade(f)}`,
    [{ kind: 'field', ref: 'ServiceRoleBinding ns/owner-binding-istio' }],
  ),
  form(
    'fallback: no RBAC object was readable',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the Istio RBAC object that answers 403: kubectl get clusterrbacconfigs,servicerolebindings,authorizationpolicies -n ${c.namespace} (the kinds this Istio serves) shows which one refuses the probes`,
  ),
);

/** ", or upgrade Knative Serving…" only where the release read has no best-effort probes (or none was read). */
function knativeUpgrade(f: FindingFacts): string {
  const v = matchIn(f, /^Knative v?(\d+)\.(\d+)/);
  if (v && (Number(v[1]) > 0 || Number(v[2]) >= 14)) return '';
  return `; or upgrade Knative Serving to 0.14 or later, whose probes are best-effort`;
}

/** The Gateway the routes bind. */
export const GATEWAY_MISSING_NEXT = byForms(
  form(
    'the Gateway the VirtualService binds (the subject)',
    (f) => /^Gateway (\S+)\/(\S+)$/.exec(f.subject) ?? undefined,
    (_c, _f, m) =>
      `kubectl get gateways -A: create Gateway ${m[1]}/${m[2]}, or point ingressGateway in the ingress key of the inferenceservice-config ConfigMap (kubectl get configmap -A | grep inferenceservice-config) at a Gateway that exists`,
  ),
  form(
    'fallback',
    () => true,
    () =>
      `${FALLBACK_LABEL} the Gateway the routes bind: kubectl get virtualservices -A -o jsonpath='{.items[*].spec.gateways}' and kubectl get gateways -A`,
  ),
);

/** The names that exist. */
export const ISVC_NOT_FOUND_NEXT = byForms(
  form(
    'the other namespaces that hold the name',
    (f) => matchIn(f, new RegExp(`${OTHER_NAMESPACES_PREFIX}(.+)$`)),
    (c, _f, m) => {
      const namespaces = (m[1] ?? '').split(', ');
      const where = namespaces.length === 1 ? `namespace ${namespaces[0]}` : `namespaces ${namespaces.join(', ')}`;
      return `${c.name} is in ${where}, not ${c.namespace}: isvc-doctor diagnose ${c.name} -n ${namespaces[0]}`;
    },
  ),
  form(
    'the close names that exist in the namespace',
    (f) => matchIn(f, new RegExp(`${CLOSE_NAMES_PREFIX}(.+)$`)),
    (c, _f, m) =>
      `No ${c.name} in ${c.namespace}; the closest names there: ${m[1]}: isvc-doctor diagnose ${(m[1] ?? '').split(', ')[0]} -n ${c.namespace}`,
  ),
  form(
    'fallback: nothing close in the namespace',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} where ${c.name} lives: kubectl get inferenceservices -A | grep ${c.name} (none of that name or close to it in ${c.namespace})`,
  ),
);

/** The rule the bot needs. */
export const BOT_FORBIDDEN_NEXT = byForms(
  form(
    'the RBAC rule that would allow the read',
    (f) => f.evidence.find((e) => e.ref === 'RBAC rule that would allow it')?.text,
    (_c, _f, rule) =>
      `add the rule {${rule
        .replace(/^- /, '')
        .split('\n')
        .map((l) => l.trim())
        .join(', ')}} to the bot's ClusterRole (deploy/base/rbac-diagnosis.yaml) and apply it, then diagnose again`,
  ),
  form(
    'fallback',
    () => true,
    () =>
      `${FALLBACK_LABEL} the denied request: the bot's log names it; kubectl auth can-i --list shows what a service account may do`,
  ),
);

/** Why the controller did not create the VirtualService. */
export const VIRTUALSERVICE_MISSING_NEXT = byForms(
  form(
    "the controller's forbidden error (its RBAC)",
    (f) =>
      matchIn(
        f,
        /User \\?"system:serviceaccount:([\w-]+):([\w-]+)\\?" cannot (\w+) resource \\?"([\w.-]+)\\?" in API group \\?"([\w.-]+)\\?"/,
      ),
    (_c, f, m) =>
      `The controller's service account ${m[1]}/${m[2]} may not ${m[3]} ${m[4]}.${m[5]}: give it "${m[3]}" on ${m[4]} in its ClusterRole (kubectl get clusterrolebinding -o wide | grep ${m[2]} names the ClusterRole; kubectl edit clusterrole THAT), then it creates ${f.subject}`,
  ),
  form(
    "the controller's error about the service",
    (f) => matchIn(f, /"error":"([^"]+)"/),
    (c, f, m) =>
      `The controller does not create ${f.subject}: it fails on ${c.namespace}/${c.name} with ${quote(m[1] ?? '')}`,
  ),
  form(
    "fallback: the controller's log was not read",
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the controller's log: kubectl logs -n kserve deploy/kserve-controller-manager | grep ${c.name} says why it did not create the VirtualService`,
  ),
);

/** The controller's error, quoted, with the command that shows it. */
export const CONTROLLER_RECONCILE_FAILED_NEXT = byForms(
  form(
    "the controller's error line (its pod named by the evidence)",
    (f) => {
      const error = matchIn(f, /"error":"((?:[^"\\]|\\.)+)"/);
      const from = f.evidence.find((e) => e.kind === 'log' && /^Pod /.test(e.ref ?? ''));
      return error && from ? { error: error[1] ?? '', from } : undefined;
    },
    (c, _f, { error, from }) => {
      const [, ns, p] = /^Pod (\S+)\/(\S+)$/.exec(from.ref ?? '') ?? [];
      return `The controller refuses ${c.namespace}/${c.name} with ${quote(error.replace(/\\"/g, '"'))} (kubectl logs ${p} -n ${ns}${from.container ? ` -c ${from.container}` : ''} | grep ${c.name}): change what that error names`;
    },
  ),
  form(
    "fallback: the controller's log was not read",
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the controller's log: kubectl logs -n kserve deploy/kserve-controller-manager | grep ${c.name} (kfserving-system / statefulset kfserving-controller-manager before KServe)`,
  ),
);

/** Knative's networking controller names why the ingress is not configured. */
export const INGRESS_NOT_CONFIGURED_NEXT = byForms(
  form(
    'the condition message',
    (f) => linesOf(f).find((l) => /IngressNotConfigured\)?: ./.test(l)),
    (c, _f, line) =>
      `Knative reports ${quote(line)}: kubectl logs -n ${c.knativeNamespace} deploy/net-istio-controller (deploy/networking-istio before 0.18) | grep ${c.name} names the probe or object it fails on`,
  ),
  form(
    'fallback',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} the networking controller's log: kubectl logs -n ${c.knativeNamespace} deploy/net-istio-controller (deploy/networking-istio before 0.18) | grep ${c.name}`,
  ),
);

/** The revision's own reason. */
export const REVISION_MISSING_NEXT = byForms(
  form(
    "the revision's Ready condition",
    (f) => linesOf(f).find((l) => /^Ready=False \(\w+\): ./.test(l) && f.revision),
    (c, f, line) =>
      `Revision ${f.revision} is not ready: ${quote(line)} (kubectl describe revision ${f.revision} -n ${c.namespace}; its pods: kubectl get pods -n ${c.namespace} -l serving.knative.dev/revision=${f.revision})`,
  ),
  form(
    'fallback',
    () => true,
    (c, f) =>
      `${FALLBACK_LABEL} the revision's conditions: kubectl get revisions -n ${c.namespace} -l ${c.podSelector}${f.revision ? ` and kubectl describe revision ${f.revision} -n ${c.namespace}` : ''}`,
  ),
);

/** The conditions that are not True. */
export const ISVC_NOT_READY_NEXT = byForms(
  form(
    'the first condition that is not True, with a message',
    (f) => linesOf(f).find((l) => /^\w+Ready=(?:False|Unknown) \(\w+\): ./.test(l)),
    (c, _f, line) =>
      `${quote(line)}: kubectl describe inferenceservice ${c.name} -n ${c.namespace}; then kubectl get pods -n ${c.namespace} -l ${c.podSelector}`,
  ),
  form(
    'fallback',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} why it is not ready: kubectl describe inferenceservice ${c.name} -n ${c.namespace} and kubectl get pods -n ${c.namespace} -l ${c.podSelector}`,
  ),
);

/** What the RawDeployment entry point lacks: the API version the cluster does not serve, or the ingress key. */
export const RAW_INGRESS_NOT_CREATED_NEXT = byForms(
  form(
    'the API version the controller writes and the cluster does not serve',
    (f) => matchIn(f, /the controller writes (\w+) at ([\w.-]+\/\w+)/),
    (c, _f, m) =>
      `The cluster does not serve ${m[1]} at ${m[2]}, which the controller writes for ${c.namespace}/${c.name}: kubectl api-versions | grep ${(m[2] ?? '').split('/')[0]} shows what it serves; install or upgrade what serves ${m[1]} at ${m[2]}, or run a KServe release that writes a version the cluster serves`,
    [
      {
        kind: 'field',
        ref: 'API discovery',
        text: 'gateway.networking.k8s.io: not served; the controller writes HTTPRoute at gateway.networking.k8s.io/v1',
      },
    ],
  ),
  form(
    'fallback',
    () => true,
    (c) =>
      `${FALLBACK_LABEL} which API or ingress key the controller lacks for ${c.namespace}/${c.name}: kubectl api-versions | grep networking.k8s.io and kubectl get configmap -A | grep inferenceservice-config (its data.ingress)`,
  ),
);
