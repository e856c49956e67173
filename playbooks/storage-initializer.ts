/**
 * Storage Initializer fails to download model (debug guide: "RevisionMissing Error").
 *
 * The `storage-initializer` init container copies the model from storageUri to /mnt/models. When it
 * fails the pod stays in Init:Error / Init:CrashLoopBackOff and the revision never becomes ready;
 * its log says why: the path does not exist, or the credentials may not read it. The pod scales
 * down after a while, so without pods the events are the evidence.
 *
 * With failed pods, the finding offers restart-pods (for after the cause is fixed).
 *
 * RBAC: list pods, get pods/log, list events (get configmaps/inferenceservice-config: the S3 key names;
 * get persistentvolumeclaims and list persistentvolumes: what a pvc:// claim bound to).
 * Its log is matched against the signature catalog (`storage-initializer` entries), including
 * misleading messages (KServe before 0.8 reports a missing pvc:// path as an unknown storage type).
 *
 * A download that cannot connect at all (refused, unreachable) is said as such; under Istio CNI
 * (istio-validation) the sidecar's redirect is why, with the annotation or UID that lets it through.
 *
 * Emits: STORAGE_URI_NOT_FOUND, STORAGE_ACCESS_DENIED, STORAGE_URI_UNSUPPORTED, STORAGE_INIT_FAILED, MODEL_HUB_ACCESS_DENIED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { messageLogEvidence, readContainerLog } from '../src/diagnosis/log-evidence.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { pvcBinding } from '../src/diagnosis/pvc-binding.js';
import { failingEntry, storageEntriesOf, storageEntryEvidence } from '../src/diagnosis/storage-uris.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { lastWord, signatureFindings, type LineSource } from '../src/diagnosis/signature-findings.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
import { serviceNextStepContext } from '../src/diagnosis/service-next-step-context.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { componentsOf, refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { containerFailures, STORAGE_INITIALIZER, type ContainerFailure } from '../src/kube/pod-status.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';
import { offerFix } from '../src/remediation/actions/index.js';
import { editCommand } from '../src/findings/next-step-context.js';

/** Words of the storage-initializer in a copied message (KServe's modelStatus, Knative's revision status). */
const STORAGE_INITIALIZER_WORDS =
  /initializer-entrypoint|storage\.py|Storage\.download|storage-initializer|Copying contents of/;
/** Lines that say why a download failed (the evidence excerpt keeps them around the traceback). */
const CAUSE = /error|exception|denied|forbidden|not found|does not exist|cannot|could not|unable/i;

export const storageInitializer: Playbook = {
  id: 'storage-initializer',
  title: 'Storage Initializer fails to download model',
  emits: [
    'STORAGE_URI_NOT_FOUND',
    'STORAGE_ACCESS_DENIED',
    'STORAGE_URI_UNSUPPORTED',
    'STORAGE_INIT_FAILED',
    'MODEL_HUB_ACCESS_DENIED',
  ],
  async run(ctx) {
    const pods = await podsOf(ctx);
    const failing = pods.flatMap((pod) =>
      containerFailures(pod)
        .filter((f) => f.container === STORAGE_INITIALIZER)
        .map((f) => ({ pod, failure: f })),
    );
    if (failing.length > 0) {
      // One pod per revision is enough evidence; the first failing one.
      const byRevision = new Map<string, { pod: V1Pod; failure: ContainerFailure }>();
      for (const item of failing) {
        const key = revisionOfPod(item.pod) ?? item.pod.metadata?.name ?? '';
        if (!byRevision.has(key)) byRevision.set(key, item);
      }
      return (
        await Promise.all([...byRevision.values()].map(({ pod, failure }) => diagnosePod(ctx, pod, failure, pods)))
      ).flat();
    }
    if (pods.length > 0) return [];
    return fromEvents(ctx);
  },
};

async function diagnosePod(
  ctx: DiagnosisContext,
  pod: V1Pod,
  failure: ContainerFailure,
  pods: V1Pod[],
): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const name = pod.metadata?.name ?? '?';
  const component = componentOf(pod.metadata?.labels);
  const revision = revisionOfPod(pod);
  const subject = refOf('Pod', ns, name);
  const log = await readContainerLog(ctx, ns, name, STORAGE_INITIALIZER, {
    preferPrevious: failure.fromPrevious,
    match: CAUSE,
  });
  // With terminationMessagePolicy FallbackToLogsOnError (KServe's default) the kubelet keeps the
  // log's tail as the termination message: the evidence when the log itself cannot be read.
  const evidence = log.evidence.excerpt?.length
    ? log.evidence
    : (messageLogEvidence(failure.terminationMessage, {
        ref: subject,
        container: STORAGE_INITIALIZER,
        label: `${STORAGE_INITIALIZER} termination message`,
        match: CAUSE,
      }) ?? log.evidence);
  const statusText = `${STORAGE_INITIALIZER}: ${failure.reason}${failure.exitCode !== undefined ? `, exit code ${failure.exitCode}` : ''}, ${failure.restarts} restart(s)`;
  const text = log.text ?? (evidence !== log.evidence ? (failure.terminationMessage ?? '') : '');
  const source: LineSource = {
    where: 'storage-initializer',
    ref: subject,
    kind: 'log',
    container: STORAGE_INITIALIZER,
    ...(log.text ? { previous: log.evidence.previous } : { label: `${STORAGE_INITIALIZER} termination message` }),
    lines: splitLogLines(text),
  };
  const causes = await Promise.all(
    causeFindings(ctx, {
      subject,
      source,
      pods,
      storageUri: storageUriOf(ctx, pod, component),
      account: pod.spec?.serviceAccountName ?? 'default',
      component,
      revision,
    }).map((f) =>
      f.code === 'STORAGE_INIT_FAILED'
        ? withIstioCni(ctx, pod, f)
        : f.code === 'STORAGE_ACCESS_DENIED'
          ? withS3Injection(ctx, pod, f, storageUriOf(ctx, pod, component))
          : f.code === 'STORAGE_URI_NOT_FOUND'
            ? withPvcBinding(ctx, f, componentStorageUri(ctx, component))
            : f,
    ),
  );
  // Restarting the pods helps once the cause is fixed: offered on the cause when known, else on the failure.
  const restart = await offerFix('restart-pods', ctx, {
    pods,
    component: component ?? 'predictor',
    ...(revision ? { revision } : {}),
  });
  // a cause said in the generic code (no network) leads, with the failure's evidence merged into it
  const own = causes.filter((f) => f.code === 'STORAGE_INIT_FAILED').map((f) => ({ ...f, remediation: restart }));
  return [
    ...own,
    finding('STORAGE_INIT_FAILED', {
      subject,
      title: `The storage-initializer init container fails (${failure.reason}${failure.exitCode !== undefined ? `, exit code ${failure.exitCode}` : ''})`,
      evidence: [
        { kind: 'field', ref: subject, container: STORAGE_INITIALIZER, text: statusText },
        ...initializedCondition(pod, subject),
        ...(evidence !== log.evidence ? [log.evidence] : []),
        evidence,
      ],
      remediation: causes.length === 0 ? restart : null,
      component,
      revision,
    }),
    ...causes.filter((f) => f.code !== 'STORAGE_INIT_FAILED').map((f) => ({ ...f, remediation: restart })),
  ];
}

/** Where KServe / KFServing installs its controller and the inferenceservice-config ConfigMap. */
const CONTROLLER_NAMESPACES = ['kserve', 'kfserving-system', 'kubeflow'];

/**
 * An s3:// download whose storage-initializer got no AWS_* / S3_* variables: nothing was injected
 * from the service account's secrets (a secret whose data keys are not the names inferenceservice-config
 * expects, e.g. the pre-0.4 awsAccessKeyID, is skipped without a word). Said with the key names the
 * install expects.
 */
async function withS3Injection(
  ctx: DiagnosisContext,
  pod: V1Pod,
  f: Finding,
  storageUri: string | undefined,
): Promise<Finding> {
  if (!storageUri?.startsWith('s3://')) return f;
  const init = pod.spec?.initContainers?.find((c) => c.name === STORAGE_INITIALIZER);
  const env = (init?.env ?? []).map((e) => e.name);
  if (env.some((n) => /ACCESS_KEY|S3_ENDPOINT|AWS_ENDPOINT_URL/.test(n)) || (init?.envFrom ?? []).length > 0) return f;
  const account = pod.spec?.serviceAccountName ?? 'default';
  const configs = await Promise.all(
    CONTROLLER_NAMESPACES.map((ns) => ctx.reader.configMap(ns, 'inferenceservice-config').catch(() => null)),
  );
  const config = configs.find((c) => c?.data?.credentials);
  let keys = { id: 'AWS_ACCESS_KEY_ID', secret: 'AWS_SECRET_ACCESS_KEY' };
  try {
    const s3 = (
      JSON.parse(config?.data?.credentials ?? '{}') as {
        s3?: { s3AccessKeyIDName?: string; s3SecretAccessKeyName?: string };
      }
    ).s3;
    keys = { id: s3?.s3AccessKeyIDName ?? keys.id, secret: s3?.s3SecretAccessKeyName ?? keys.secret };
  } catch {
    // an unreadable credentials entry: the release's defaults
  }
  const ns = ctx.target.namespace;
  const subject = refOf('Pod', ns, pod.metadata?.name ?? '?');
  const accountRead = await serviceAccountSecrets(ctx, account);
  const kubeflow = ctx.target.apiVersion.startsWith('serving.kubeflow.org/');
  const endpointAnnotation = kubeflow ? 'serving.kubeflow.org/s3-endpoint' : 'serving.kserve.io/s3-endpoint';
  const accountField = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace).fieldPath(
    f.component,
    'serviceAccountName',
  );
  const keysSaid = `its data keys must be named ${keys.id} and ${keys.secret} (inferenceservice-config credentials.s3; a secret written for KFServing before 0.4 has awsAccessKeyID / awsSecretAccessKey, which are skipped) and its annotations must name the endpoint (${endpointAnnotation})`;
  const then = 'then delete the pod so the storage-initializer gets them';
  const next =
    accountRead === 'unread'
      ? `kubectl get serviceaccount ${account} -n ${ns} -o jsonpath='{.secrets[*].name}', then kubectl describe secret on each of them -n ${ns} (it lists key names, not values): the S3 secret's data keys must be ${keys.id} and ${keys.secret} (KFServing before 0.4 read awsAccessKeyID / awsSecretAccessKey) and its annotations must name the endpoint (${endpointAnnotation}); rename the keys, or set ${accountField} to the service account that carries such a secret; ${then} (the bot may not get serviceaccounts in ${ns}: that grant would let it name the secret)`
      : accountRead.secrets.length === 0
        ? `Service account ${account} lists no secret, so KServe had no S3 credentials to inject: create a secret with data keys ${keys.id} and ${keys.secret} and the ${endpointAnnotation} annotation, add it to the secrets of service account ${account} (kubectl patch serviceaccount ${account} -n ${ns} -p '{"secrets":[{"name":"SECRET"}]}' with its name), or set ${accountField} to a service account that lists one; ${then}`
        : `Service account ${account} lists ${plural(accountRead.secrets, 'secret')} ${accountRead.secrets.join(', ')}, yet KServe injected none of its keys: ${keysSaid}. kubectl describe secret ${accountRead.secrets[0]} -n ${ns} lists its key names (not their values; the bot reads no Secret); rename the keys to ${keys.id} / ${keys.secret} (or set credentials.s3.s3AccessKeyIDName / s3SecretAccessKeyName in inferenceservice-config to the names it has), ${then}`;
  return {
    ...f,
    title:
      accountRead !== 'unread' && accountRead.secrets.length > 0
        ? `No S3 credentials reached the storage-initializer: service account ${account} lists ${accountRead.secrets.join(', ')}, whose keys KServe did not take as ${keys.id} / ${keys.secret}`
        : f.title,
    evidence: [
      {
        kind: 'field',
        ref: subject,
        container: STORAGE_INITIALIZER,
        text: `storage-initializer env: ${env.join(', ') || 'none'}: no ${keys.id}, ${keys.secret} or S3_ENDPOINT was injected from service account ${account}`,
      },
      ...(accountRead !== 'unread'
        ? [
            {
              kind: 'field' as const,
              ref: refOf('ServiceAccount', ns, account),
              text: `secrets: ${accountRead.secrets.join(', ') || 'none'}${accountRead.tokens.length ? ` (and ${accountRead.tokens.join(', ')}: its API token / pull secret)` : ''}`,
            },
          ]
        : []),
      ...(config
        ? [
            {
              kind: 'field' as const,
              ref: refOf('ConfigMap', config.metadata?.namespace ?? '?', 'inferenceservice-config'),
              text: `credentials.s3: the secret's data keys must be ${keys.id} and ${keys.secret}`,
            },
          ]
        : []),
      ...f.evidence,
    ],
    next,
  };
}

/**
 * The secrets a service account lists (KServe's credential builder reads each of them), apart from the
 * token and pull secrets Kubernetes and OpenShift add under the account's own name; 'unread' when the
 * account cannot be read. Secrets themselves are never read.
 */
async function serviceAccountSecrets(
  ctx: DiagnosisContext,
  account: string,
): Promise<{ secrets: string[]; tokens: string[] } | 'unread'> {
  const sa = await ctx.reader.serviceAccount(ctx.target.namespace, account).catch(() => null);
  if (!sa) return 'unread';
  const names = (sa.secrets ?? []).map((s) => s.name).filter((n): n is string => typeof n === 'string');
  const own = (n: string) => n.startsWith(`${account}-token-`) || n.startsWith(`${account}-dockercfg-`);
  return { secrets: names.filter((n) => !own(n)), tokens: names.filter(own) };
}

function plural(items: readonly unknown[], word: string): string {
  return items.length === 1 ? word : `${word}s`;
}

/**
 * A pvc:// path that is not there: the claim's binding (its class, the volume it bound to and how
 * that volume came to be, the volumes still Available) decides between a claim bound to the wrong,
 * empty volume and a model copied to another path.
 */
async function withPvcBinding(ctx: DiagnosisContext, f: Finding, storageUri: string | undefined): Promise<Finding> {
  const binding = await pvcBinding(ctx, storageUri, f.component);
  return binding ? { ...f, evidence: [...f.evidence, ...binding.evidence], next: binding.next } : f;
}

/** The component's storageUri as the spec writes it (pvc://claim/path; the init container's args hold the mount path). */
function componentStorageUri(ctx: DiagnosisContext, component: string | undefined): string | undefined {
  const comps = componentsOf(ctx.target.isvc);
  return (comps.find((c) => c.name === (component ?? 'predictor') && !c.canary) ?? comps[0])?.storageUri;
}

/**
 * Istio's CNI plugin (an istio-validation init container instead of istio-init) redirects the pod's
 * traffic to the sidecar before any init container runs, and the sidecar starts after them: the
 * storage-initializer's connections are refused unless it runs as the proxy's UID or its traffic is
 * excluded (KServe 0.12 does the former when it detects Istio CNI, kserve/kserve#3316).
 */
function withIstioCni(ctx: DiagnosisContext, pod: V1Pod, f: Finding): Finding {
  const inits = (pod.spec?.initContainers ?? []).map((c) => c.name);
  if (!inits.includes('istio-validation')) return f;
  const init = pod.spec?.initContainers?.find((c) => c.name === STORAGE_INITIALIZER);
  const uid = init?.securityContext?.runAsUser;
  const subject = refOf('Pod', ctx.target.namespace, pod.metadata?.name ?? '?');
  return {
    ...f,
    title: `The storage-initializer has no network: Istio CNI redirects its traffic to the sidecar, which does not run yet (init containers: ${inits.join(', ')})`,
    evidence: [
      {
        kind: 'field',
        ref: subject,
        text: `initContainers: ${inits.join(', ')}; storage-initializer runAsUser: ${uid ?? 'not set'} (the sidecar's is 1337)`,
      },
      ...f.evidence,
    ],
    next: `${editCommand(ctx.target)}: annotate the ${f.component ?? 'predictor'} with traffic.sidecar.istio.io/excludeOutboundIPRanges (the storage's addresses) or sidecar.istio.io/inject: "false", or run the storage-initializer as UID 1337 (KServe 0.12+ does so when it detects Istio CNI)`,
  };
}

/** The pod's Initialized condition: which init containers have not completed. */
function initializedCondition(pod: V1Pod, subject: string): Evidence[] {
  const c = pod.status?.conditions?.find((x) => x.type === 'Initialized' && x.status !== 'True');
  return c
    ? [
        {
          kind: 'condition',
          ref: subject,
          text: `Initialized=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`,
        },
      ]
    : [];
}

interface CauseInput {
  subject: string;
  source: LineSource;
  pods: V1Pod[];
  storageUri?: string;
  account?: string;
  component?: string;
  revision?: string;
}

/** What the storage-initializer's own words say (signature catalog, `storage-initializer` entries): the exception that ended it decides. */
function causeFindings(ctx: DiagnosisContext, c: CauseInput): Finding[] {
  const ns = ctx.target.namespace;
  const isvcRef = refOf('InferenceService', ns, ctx.target.name);
  // a component that lists several sources (storageUris): the entry the initializer's own lines name
  const entry = failingEntry(storageEntriesOf(ctx.target.isvc, c.component, c.revision), c.source.lines.join('\n'));
  const uriEvidence: Evidence = entry
    ? storageEntryEvidence(isvcRef, entry)
    : { kind: 'field', ref: isvcRef, text: `storageUri: ${c.storageUri ?? 'unknown'}` };
  const scope = { subject: c.subject, component: c.component, revision: c.revision };
  const { findings } = signatureFindings(ctx, c.source, scope, versionFactsOf(ctx, c.pods), lastWord);
  return findings.map((f) => {
    const account =
      f.code === 'STORAGE_ACCESS_DENIED' && c.account
        ? [{ kind: 'field' as const, ref: c.subject, text: `serviceAccountName: ${c.account}` }]
        : [];
    return { ...f, evidence: [uriEvidence, ...account, ...f.evidence] };
  });
}

function storageUriOf(ctx: DiagnosisContext, pod: V1Pod, component: string | undefined): string | undefined {
  const init = pod.spec?.initContainers?.find((c) => c.name === STORAGE_INITIALIZER);
  const fromArgs = init?.args?.find((a) => /^[a-z0-9]+:\/\//i.test(a));
  if (fromArgs) return fromArgs;
  const comps = componentsOf(ctx.target.isvc);
  return (comps.find((c) => c.name === component) ?? comps[0])?.storageUri;
}

/**
 * When the pods are gone: what KServe copied into modelStatus (the storage-initializer's
 * termination message), and the events that the storage-initializer failed.
 */
async function fromEvents(ctx: DiagnosisContext): Promise<Finding[]> {
  // the pod is gone, the claim is not: a pvc:// path is read against what the claim bound to
  const fromStatus = await Promise.all(
    fromModelStatus(ctx).map((f) =>
      f.code === 'STORAGE_URI_NOT_FOUND' ? withPvcBinding(ctx, f, componentStorageUri(ctx, f.component)) : f,
    ),
  );
  if (fromStatus.length > 0) return fromStatus;
  // a pod-creation refusal that names the init container (FailedCreate: "Error creating: ... forbidden")
  // means the pod never existed: the storage-initializer never ran, so it did not fail
  const events = (await eventsOf(ctx)).filter(
    (e) =>
      /storage-initializer/.test(`${e.message ?? ''} ${e.involvedObject?.fieldPath ?? ''}`) &&
      e.type === 'Warning' &&
      e.reason !== 'FailedCreate' &&
      !/^Error creating:/.test(e.message ?? ''),
  );
  if (events.length === 0) return [];
  const last = events[events.length - 1]!;
  const subject = refOf(last.involvedObject?.kind ?? 'Pod', ctx.target.namespace, last.involvedObject?.name ?? '?');
  return [
    finding('STORAGE_INIT_FAILED', {
      subject,
      title: 'The storage-initializer init container failed (the pod has since been scaled down)',
      evidence: events.slice(-3).map((e) => ({
        kind: 'event' as const,
        ref: refOf(e.involvedObject?.kind ?? 'Pod', ctx.target.namespace, e.involvedObject?.name ?? '?'),
        text: `${e.reason ?? ''}: ${e.message ?? ''}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`,
      })),
    }),
  ];
}

function fromModelStatus(ctx: DiagnosisContext): Finding[] {
  const status = ctx.target.isvc.status?.modelStatus as
    | { lastFailureInfo?: { message?: unknown; exitCode?: unknown } }
    | undefined;
  const message = typeof status?.lastFailureInfo?.message === 'string' ? status.lastFailureInfo.message : undefined;
  if (!message || !STORAGE_INITIALIZER_WORDS.test(message)) return [];
  const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const evidence = messageLogEvidence(message, {
    ref: subject,
    container: STORAGE_INITIALIZER,
    label: 'modelStatus.lastFailureInfo.message (the storage-initializer, copied by KServe)',
    match: CAUSE,
  })!;
  const storageUri = componentsOf(ctx.target.isvc).find((c) => c.name === 'predictor')?.storageUri;
  return [
    finding('STORAGE_INIT_FAILED', {
      subject,
      title: `The storage-initializer init container failed${typeof status?.lastFailureInfo?.exitCode === 'number' ? ` (exit code ${status.lastFailureInfo.exitCode})` : ''}; its pod is gone`,
      evidence: [evidence],
      component: 'predictor',
    }),
    ...causeFindings(ctx, {
      subject,
      source: {
        where: 'storage-initializer',
        ref: subject,
        kind: 'log',
        container: STORAGE_INITIALIZER,
        label: 'modelStatus.lastFailureInfo.message (the storage-initializer, copied by KServe)',
        lines: splitLogLines(message),
      },
      pods: [],
      storageUri,
      component: 'predictor',
    }),
  ];
}
