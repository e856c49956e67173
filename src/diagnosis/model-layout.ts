/**
 * What the storage-initializer put in /mnt/models, read from its log in the pod whose model server
 * found no model file: the next step names that layout (the model file one folder down: point the
 * storageUri at that folder; files under other names: which are there) instead of asking to upload a
 * file that is there.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Evidence, Finding } from '../findings/types.js';
import { componentsOf } from '../kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../kube/pod-labels.js';
import { STORAGE_INITIALIZER } from '../kube/pod-status.js';
import { fieldPathOf } from './field-path.js';
import { readContainerLog } from './log-evidence.js';
import type { DiagnosisContext } from './playbook.js';

const COPIED = /Successfully copied|Downloaded object|Downloading: |Copying contents of|Unpacking|Linking/;

/** A missing model file, said with what the storage-initializer did put in /mnt/models (when it ran in this pod). */
export async function withModelLayout(ctx: DiagnosisContext, pod: V1Pod, findings: Finding[]): Promise<Finding[]> {
  if (!findings.some((f) => f.code === 'MODEL_FILE_MISSING')) return findings;
  const copied = await copiedEvidence(ctx, pod);
  if (!copied) return findings;
  const component = componentOf(pod.metadata?.labels);
  const field = fieldPathOf(ctx.target.isvc, component, 'storageUri', revisionOfPod(pod));
  const storageUri = componentsOf(ctx.target.isvc).find((c) => c.name === (component ?? 'predictor'))?.storageUri;
  return findings.map((f) => {
    if (f.code !== 'MODEL_FILE_MISSING') return f;
    const next = layoutNext(copiedFiles(copied.excerpt ?? []), field, storageUri);
    return { ...f, evidence: [...f.evidence, copied], ...(next ? { next: next(f.next) } : {}) };
  });
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
): ((next: string | undefined) => string) | undefined {
  if (files.length === 0) return undefined;
  const nested = files.find((f) => f.includes('/') && !/^\d+\//.test(f) && MODEL_FILE.test(f) && !/readme/i.test(f));
  if (nested) {
    const folder = nested.slice(0, nested.lastIndexOf('/'));
    return () =>
      `The storage-initializer put ${nested.split('/').pop()} in /mnt/models/${folder}/, a folder below where the server looks: set ${field} to ${storageUri ? `${storageUri.replace(/\/$/, '')}/${folder}` : `the ${folder} folder`}, the folder that holds the model file`;
  }
  const there = files.filter((f) => !f.includes('/')).slice(0, 5);
  if (there.length === 0) return undefined;
  return (next) => `${next ? `${next}; ` : ''}what ${storageUri ?? field} holds now: ${there.join(', ')}`;
}

/** The storage-initializer's lines about what it copied into /mnt/models, when it ran in this pod. */
export async function copiedEvidence(ctx: DiagnosisContext, pod: V1Pod): Promise<Evidence | undefined> {
  const ran = pod.status?.initContainerStatuses?.some(
    (s) => s.name === STORAGE_INITIALIZER && s.state?.terminated?.exitCode === 0,
  );
  if (!ran) return undefined;
  const name = pod.metadata?.name ?? '?';
  const log = await readContainerLog(ctx, ctx.target.namespace, name, STORAGE_INITIALIZER, {
    currentOnly: true,
    match: COPIED,
    fallbackToErrors: false,
  });
  if (!log.evidence.excerpt?.length) return undefined;
  return { ...log.evidence, text: 'what the storage-initializer put in /mnt/models' };
}
