/** Finds the live InferenceService (or LLMInferenceService) under any supported API version (fresh, for planning; or as the diagnosis that offered the fix just read it). */
import { RemediationError } from '../changes/remediation-error.js';
import type { TargetRef } from '../core/target-ref.js';
import type { AnsweredReads } from '../kube/cluster-reader.js';
import type { ClusterWriter, ObjectRef } from '../kube/cluster-writer.js';
import { INFERENCE_SERVICE_VERSIONS, LLM_INFERENCE_SERVICE_VERSIONS } from '../kube/resources.js';
import type { KubeObject } from '../kube/schemas.js';

export async function findInferenceService(
  writer: ClusterWriter,
  target: TargetRef,
  seen?: AnsweredReads,
): Promise<{ ref: ObjectRef; object: KubeObject }> {
  // the diagnosis that offered the fix found it moments ago: no second lookup under every version
  const found = seen?.inferenceService(target.namespace, target.name);
  if (found) {
    const ref: ObjectRef = {
      apiVersion: `${found.resource.group}/${found.resource.version}`,
      kind: 'InferenceService',
      namespace: target.namespace,
      name: target.name,
    };
    return { ref, object: found.object as KubeObject };
  }
  const live = await firstServed(writer, INFERENCE_SERVICE_VERSIONS, 'InferenceService', target.namespace, target.name);
  if (live) return live;
  throw new RemediationError(
    'REMEDIATION_TARGET_NOT_FOUND',
    `InferenceService ${target.namespace}/${target.name} not found`,
  );
}

/** The LLMInferenceService of that name under the first API version that has it; null when none does. */
export function findLlmInferenceService(
  writer: ClusterWriter,
  namespace: string,
  name: string,
): Promise<{ ref: ObjectRef; object: KubeObject } | null> {
  return firstServed(writer, LLM_INFERENCE_SERVICE_VERSIONS, 'LLMInferenceService', namespace, name);
}

async function firstServed(
  writer: ClusterWriter,
  versions: readonly { group: string; version: string }[],
  kind: string,
  namespace: string,
  name: string,
): Promise<{ ref: ObjectRef; object: KubeObject } | null> {
  for (const r of versions) {
    const ref: ObjectRef = { apiVersion: `${r.group}/${r.version}`, kind, namespace, name };
    const object = await writer.get(ref);
    if (object) return { ref, object };
  }
  return null;
}

/** `locate` for the patch actions that change the InferenceService itself. */
export async function locateInferenceService(ctx: {
  writer: ClusterWriter;
  target: TargetRef;
  seen?: AnsweredReads;
}): Promise<{ target: ObjectRef; isvc: ObjectRef; live: KubeObject }> {
  const { ref, object } = await findInferenceService(ctx.writer, ctx.target, ctx.seen);
  return { target: ref, isvc: ref, live: object };
}
