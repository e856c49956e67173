/**
 * A crash whose log names a missing path under a directory a volume is mounted over: the image put
 * files there, but an empty volume that no init container fills hides them in the pod (the same
 * image runs under `docker run`). Read from the pod as it runs: the crashed container's volumeMounts,
 * the pod's volumes (emptyDir) and init containers (none writes to it), and whether the mount is the
 * user's (in the InferenceService's container) or the platform's. Knative mounts an emptyDir over
 * /var/log in every revision pod for log collection (always before 0.20; from 0.20 only while
 * `logging.enable-var-log-collection` is true in config-observability).
 */
import type { V1Pod, V1VolumeMount } from '@kubernetes/client-node';
import type { Evidence } from '../findings/types.js';
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import { knativeReleaseOf } from './knative-probes.js';
import type { DiagnosisContext } from './playbook.js';

/** Lines that say a path is missing, as C libraries, Python, Node and Go say it. */
const MISSING = /does not exist|No such file or directory|ENOENT|not found|cannot open|could not open|can't open/i;
const ABSOLUTE_PATH = /(?<![\w.:/])\/(?:[\w.@+-]+\/)*[\w.@+-]+/g;

export interface HiddenByMount {
  /** The path the log names as missing. */
  path: string;
  line: string;
  mount: V1VolumeMount;
  /** Who mounted it: "Knative" (a revision pod's mount the InferenceService does not declare), else "the pod" (KServe or a webhook). */
  by: 'Knative' | 'the pod';
  evidence: Evidence;
  next: string;
}

/** The first log line naming a missing path under an empty volume mounted on that container, with its fix. */
export function hiddenByMount(
  ctx: DiagnosisContext,
  pod: V1Pod,
  container: string,
  lines: readonly string[],
  component: string | undefined,
  knativeRelease?: string,
): HiddenByMount | undefined {
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  if (!spec?.volumeMounts?.length) return undefined;
  for (const line of lines) {
    if (!MISSING.test(line)) continue;
    for (const path of line.match(ABSOLUTE_PATH) ?? []) {
      const mount = emptyMountOver(pod, spec.volumeMounts, path);
      // a volume the user mounted there is theirs to know about: only the platform's hide the image's files unasked
      if (mount && !declaredByService(ctx, component, mount.mountPath))
        return describe(ctx, pod, container, path, line.trim(), mount, knativeRelease);
    }
  }
  return undefined;
}

/** The deepest mount strictly above `path` whose volume is an emptyDir no init container writes to. */
function emptyMountOver(pod: V1Pod, mounts: V1VolumeMount[], path: string): V1VolumeMount | undefined {
  const above = mounts
    .filter((m) => {
      const dir = m.mountPath.replace(/\/+$/, '');
      return dir !== '' && path.startsWith(`${dir}/`);
    })
    .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  if (!above) return undefined;
  const volume = pod.spec?.volumes?.find((v) => v.name === above.name);
  if (!volume?.emptyDir) return undefined;
  const filled = (pod.spec?.initContainers ?? []).some((c) => c.volumeMounts?.some((m) => m.name === above.name));
  return filled ? undefined : above;
}

/** Whether the InferenceService's own container of that component declares a mount at that path. */
function declaredByService(ctx: DiagnosisContext, component: string | undefined, mountPath: string): boolean {
  const view = componentsOf(ctx.target.isvc).find((c) => c.name === (component ?? 'predictor') && !c.canary);
  let block: unknown = ctx.target.isvc;
  for (const key of view?.modelPath ?? []) block = (block as Record<string, unknown> | undefined)?.[key];
  const mounts = (block as { volumeMounts?: unknown } | undefined)?.volumeMounts;
  return Array.isArray(mounts) && mounts.some((m) => (m as { mountPath?: unknown })?.mountPath === mountPath);
}

function describe(
  ctx: DiagnosisContext,
  pod: V1Pod,
  container: string,
  path: string,
  line: string,
  mount: V1VolumeMount,
  knativeRelease: string | undefined,
): HiddenByMount {
  const dir = mount.mountPath.replace(/\/+$/, '');
  const knativePod = pod.metadata?.labels?.['serving.knative.dev/revision'] !== undefined;
  const by = knativePod ? 'Knative' : 'the pod';
  const ref = refOf('Pod', ctx.target.namespace, pod.metadata?.name ?? '?');
  const evidence: Evidence = {
    kind: 'field',
    ref,
    container,
    text: `${container} volumeMounts: ${mount.name} (emptyDir) at ${mount.mountPath}${mount.subPathExpr ? ` (subPathExpr ${mount.subPathExpr})` : ''}, mounted by ${by}: it hides what the image has under ${dir}, and ${path} is under it`,
  };
  const inImage = `or have the image write outside ${dir} (or create ${parentOf(path)} when it starts)`;
  let next: string;
  if (by === 'Knative' && dir === '/var/log') {
    const cm = `ConfigMap ${ctx.config.knativeNamespace}/config-observability`;
    const release = knativeRelease ?? knativeReleaseOf(pod.metadata?.labels);
    const old = release !== undefined && olderThan(release, 0, 20);
    next = old
      ? `Knative ${release} mounts ${mount.name} (an emptyDir) at /var/log in every revision pod, hiding ${parentOf(path)} from the image: upgrade Knative to 0.20 or newer, where it is mounted only while logging.enable-var-log-collection is "true" in ${cm} (leave it false), ${inImage}`
      : `Knative mounts ${mount.name} (an emptyDir) at /var/log while logging.enable-var-log-collection is "true" in ${cm} (and always before Knative 0.20), hiding ${parentOf(path)} from the image: set it to "false" (kubectl edit configmap config-observability -n ${ctx.config.knativeNamespace}) if nothing collects /var/log, upgrade Knative if it is older than 0.20, ${inImage}`;
  } else {
    next = `${mount.name} (an emptyDir mounted by ${by} at ${mount.mountPath} on ${container}) hides what the image has under ${dir}, so ${path} is missing: mount it elsewhere, ${inImage}`;
  }
  return { path, line, mount, by, evidence, next };
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

function olderThan(version: string, major: number, minor: number): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a < major || (a === major && b < minor);
}
