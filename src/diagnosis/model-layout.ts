/**
 * What the storage-initializer put in /mnt/models, read from its log in the pod whose model server
 * found no model file: the next step names that layout against the folder the server reads (the
 * model file one folder down: point the storageUri at that folder; files under other names: which
 * are there) instead of asking to upload a file that is there. A crash-looping server's pod still
 * holds its completed init container's log: the crash playbook starts that read next to the crash
 * log's (layoutRead), so both are one wave.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Evidence, Finding } from '../findings/types.js';
import { componentsOf } from '../kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../kube/pod-labels.js';
import { STORAGE_INITIALIZER, type ContainerFailure } from '../kube/pod-status.js';
import { splitLogLines } from '../logs/log-excerpt.js';
import { fieldPathOf } from './field-path.js';
import { readContainerLog } from './log-evidence.js';
import type { DiagnosisContext } from './playbook.js';

const COPIED = /Successfully copied|Downloaded object|Downloading: |Copying contents of|Unpacking|Linking/;

/**
 * A missing model file, said with what the storage-initializer did put in /mnt/models (when it ran
 * in this pod) against the folder the server reads (its model-dir argument, else the /mnt/models
 * path its log names). `copied` is a read already started (layoutRead), else it is read now.
 */
export async function withModelLayout(
  ctx: DiagnosisContext,
  pod: V1Pod,
  findings: Finding[],
  copied?: Promise<Evidence | undefined>,
): Promise<Finding[]> {
  if (!findings.some((f) => f.code === 'MODEL_FILE_MISSING')) return findings;
  const layout = await (copied ?? copiedEvidence(ctx, pod));
  if (!layout) return findings;
  const component = componentOf(pod.metadata?.labels);
  const field = fieldPathOf(ctx.target.isvc, component, 'storageUri', revisionOfPod(pod));
  const storageUri = componentsOf(ctx.target.isvc).find((c) => c.name === (component ?? 'predictor'))?.storageUri;
  return findings.map((f) => {
    if (f.code !== 'MODEL_FILE_MISSING') return f;
    const lines = f.evidence.flatMap((e) => [e.text ?? '', ...(e.excerpt ?? [])]);
    const next = layoutNext(
      copiedFiles(layout.excerpt ?? []),
      field,
      storageUri,
      serverDir(pod, f.evidence.find((e) => e.kind === 'log' && e.container)?.container, lines),
    );
    return { ...f, evidence: [...f.evidence, layout], ...(next ? { next: next(f.next) } : {}) };
  });
}

/**
 * The storage-initializer's lines about what it copied, read next to a crashed model server's own
 * log (one wave) when the storage-initializer completed in that pod and nothing already read says
 * the crash is something else: a termination message that holds the log's tail is matched first,
 * and only one that says the model file is missing (or none) is worth the read.
 */
export function layoutRead(
  ctx: DiagnosisContext,
  pod: V1Pod,
  failure: ContainerFailure,
): Promise<Evidence | undefined> | undefined {
  if (!initializerCompleted(pod)) return undefined;
  const tail = failure.terminationMessage;
  if (tail?.trim()) {
    const codes = ctx.signatures.matchLines('model-log', splitLogLines(tail)).map((m) => m.entry.code);
    if (!codes.includes('MODEL_FILE_MISSING')) return undefined;
  }
  const read = copiedEvidence(ctx, pod);
  read.catch(() => undefined);
  return read;
}

/** The folder the model server reads its model from: its model-dir argument, else a /mnt/models path its lines name. */
function serverDir(pod: V1Pod, container: string | undefined, lines: readonly string[]): string | undefined {
  const spec = pod.spec?.containers?.find((c) => c.name === container) ?? pod.spec?.containers?.[0];
  const args = [...(spec?.command ?? []), ...(spec?.args ?? [])];
  for (const [i, a] of args.entries()) {
    const m = /^--model[_-](?:dir|repository|base[_-]path)(?:=(.+))?$/.exec(a);
    if (m) return m[1] ?? args[i + 1];
  }
  for (const l of lines) {
    const m = /(\/mnt\/models(?:\/[\w.-]+)*)/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

function initializerCompleted(pod: V1Pod): boolean {
  return (
    pod.status?.initContainerStatuses?.some(
      (s) => s.name === STORAGE_INITIALIZER && s.state?.terminated?.exitCode === 0,
    ) ?? false
  );
}

/** The files the storage-initializer's lines say it wrote, relative to /mnt/models. */
export function copiedFiles(lines: readonly string[]): string[] {
  return lines.flatMap((l) => {
    const m = /(?:Downloading: |to )\/mnt\/models\/(\S+?)\s*$/.exec(l);
    return m ? [m[1] ?? ''] : [];
  });
}

const MODEL_FILE = /(?:^|\/)(?:model\.\w+|[^/]+\.(?:joblib|pkl|pickle|bst|ubj|txt|onnx|pt|pth|mar|pb|json))$/;

/**
 * The step the layout decides: the model file one folder down (storageUri names its parent), else
 * the files that are there, named after the server's expected name.
 */
function layoutNext(
  files: readonly string[],
  field: string,
  storageUri: string | undefined,
  dir: string | undefined,
): ((next: string | undefined) => string) | undefined {
  if (files.length === 0) return undefined;
  const nested = files.find((f) => f.includes('/') && !/^\d+\//.test(f) && MODEL_FILE.test(f) && !/readme/i.test(f));
  if (nested) {
    const folder = nested.slice(0, nested.lastIndexOf('/'));
    const looks = !dir
      ? 'a folder below where the server looks'
      : MODEL_FILE.test(dir)
        ? `the server looks for ${dir}`
        : `the server reads ${dir.replace(/\/$/, '')}`;
    return () =>
      `The storage-initializer put ${nested.split('/').pop()} in /mnt/models/${folder}/, but ${looks}: set ${field} to ${storageUri ? `${storageUri.replace(/\/$/, '')}/${folder}` : `the ${folder} folder`}, the folder that holds the model file`;
  }
  const there = files.filter((f) => !f.includes('/')).slice(0, 5);
  if (there.length === 0) return undefined;
  return (next) => `${next ? `${next}; ` : ''}what ${storageUri ?? field} holds now: ${there.join(', ')}`;
}

/** The storage-initializer's lines about what it copied into /mnt/models, when it ran in this pod. */
export async function copiedEvidence(ctx: DiagnosisContext, pod: V1Pod): Promise<Evidence | undefined> {
  if (!initializerCompleted(pod)) return undefined;
  const name = pod.metadata?.name ?? '?';
  const log = await readContainerLog(ctx, ctx.target.namespace, name, STORAGE_INITIALIZER, {
    currentOnly: true,
    match: COPIED,
    fallbackToErrors: false,
  });
  if (!log.evidence.excerpt?.length) return undefined;
  return { ...log.evidence, text: 'what the storage-initializer put in /mnt/models' };
}
