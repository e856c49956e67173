/** Finds the live InferenceService under any supported API version (fresh, for planning; or as the diagnosis that offered the fix just read it). */
import { RemediationError } from '../changes/remediation-error.js';
import type { TargetRef } from '../core/target-ref.js';
import type { AnsweredReads } from '../kube/cluster-reader.js';
import type { ClusterWriter, ObjectRef } from '../kube/cluster-writer.js';
import { INFERENCE_SERVICE_VERSIONS } from '../kube/resources.js';
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
  for (const r of INFERENCE_SERVICE_VERSIONS) {
    const ref: ObjectRef = {
      apiVersion: `${r.group}/${r.version}`,
      kind: 'InferenceService',
      namespace: target.namespace,
      name: target.name,
    };
    const object = await writer.get(ref);
    if (object) return { ref, object };
  }
  throw new RemediationError(
    'REMEDIATION_TARGET_NOT_FOUND',
    `InferenceService ${target.namespace}/${target.name} not found`,
  );
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
