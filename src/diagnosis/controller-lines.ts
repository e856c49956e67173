/**
 * The KServe / KFServing controller's recent log lines about one InferenceService. The controller
 * runs in `kserve`, `kfserving-system` or `kubeflow` depending on the install, so its pods are
 * found by label in every namespace; its log is read bounded (tailLines / limitBytes). A line is
 * about the service when it names it (`"name":"N","namespace":"NS"`, `"Name":"N"`, `"request":"NS/N"`,
 * `NS/N`), or when it carries the same error as the next lines that do (KFServing logs "Failed to
 * reconcile" without the name, then "Reconciler error" with it).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { ForbiddenError } from '../kube/errors.js';
import { refOf } from '../kube/inference-service-view.js';
import { splitLogLines } from '../logs/log-excerpt.js';
import type { DiagnosisContext } from './playbook.js';

export const CONTROLLER_SELECTOR = 'control-plane in (kserve-controller-manager,kfserving-controller-manager)';

export interface ControllerLines {
  pod: V1Pod;
  ref: string;
  container: string;
  lines: string[];
  /** 1-based line numbers of `lines` in the log read. */
  lineNumbers: number[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function namer(namespace: string, name: string): (line: string) => boolean {
  const n = escapeRegExp(name);
  const ns = escapeRegExp(namespace);
  const json = new RegExp(`"(?:name|Name|isvc|inferenceservice)":\\s*"${n}"`);
  const qualified = new RegExp(`(?:^|[\\s"'(\\[])${ns}/${n}(?:$|[\\s"')\\],:])`);
  const otherNamespace = /"namespace":\s*"([^"]+)"/;
  return (line) => {
    if (qualified.test(line)) return true;
    if (!json.test(line)) return false;
    const m = otherNamespace.exec(line);
    return !m || m[1] === namespace;
  };
}

const errorOf = (line: string) => /"error":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];

/** Indexes of the lines about the service. */
export function linesAbout(lines: readonly string[], namespace: string, name: string): number[] {
  const names = namer(namespace, name);
  const out = new Set<number>();
  lines.forEach((line, i) => {
    if (names(line)) {
      out.add(i);
      return;
    }
    const error = errorOf(line);
    if (!error) return;
    for (const j of [i + 1, i + 2]) {
      const next = lines[j];
      if (next && names(next) && errorOf(next)?.endsWith(error)) out.add(i);
    }
  });
  return [...out].sort((a, b) => a - b);
}

/** The controller's own container (its manager, not the RBAC proxy beside it). */
export function controllerContainerOf(pod: V1Pod): string {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  return names.find((n) => n === 'manager') ?? names.find((n) => n !== 'kube-rbac-proxy') ?? 'manager';
}

/** The controller's pods (found in any namespace by label); [] when the bot may not list them. */
export async function controllerPods(ctx: DiagnosisContext): Promise<V1Pod[]> {
  try {
    return (await ctx.reader.podsAllNamespaces(CONTROLLER_SELECTOR))
      .filter((p) => p.status?.phase === 'Running' || !p.status?.phase)
      .slice(0, 2);
  } catch (error) {
    if (error instanceof ForbiddenError) return [];
    throw error;
  }
}

/** The lines of each running controller pod (at most two) about the service; [] when none is visible. */
export async function controllerLinesAbout(ctx: DiagnosisContext): Promise<ControllerLines[]> {
  const pods = await controllerPods(ctx);
  const read = await Promise.all(pods.map((pod) => podLinesAbout(ctx, pod, controllerContainerOf(pod))));
  return read.filter((r) => r.lines.length > 0);
}

/** One controller pod's log lines about the diagnosed service (none when its log may not be read). */
export async function podLinesAbout(ctx: DiagnosisContext, pod: V1Pod, container: string): Promise<ControllerLines> {
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '?';
  let text: string | null = null;
  try {
    text = await ctx.reader.podLog(ns, name, container);
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
  }
  const all = splitLogLines(text ?? '');
  const about = linesAbout(all, ctx.target.namespace, ctx.target.name);
  return {
    pod,
    ref: refOf('Pod', ns, name),
    container,
    lines: about.map((i) => all[i] ?? ''),
    lineNumbers: about.map((i) => i + 1),
  };
}
