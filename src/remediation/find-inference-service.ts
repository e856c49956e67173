/** Finds the live InferenceService under any supported API version (fresh, for planning). */
import { RemediationError } from '../changes/remediation-error.js';
import type { TargetRef } from '../core/target-ref.js';
import type { ClusterWriter, ObjectRef } from '../kube/cluster-writer.js';
import { INFERENCE_SERVICE_VERSIONS } from '../kube/resources.js';
import type { KubeObject } from '../kube/schemas.js';

export async function findInferenceService(writer: ClusterWriter, target: TargetRef): Promise<{ ref: ObjectRef; object: KubeObject }> {
  for (const r of INFERENCE_SERVICE_VERSIONS) {
    const ref: ObjectRef = { apiVersion: `${r.group}/${r.version}`, kind: 'InferenceService', namespace: target.namespace, name: target.name };
    const object = await writer.get(ref);
    if (object) return { ref, object };
  }
  throw new RemediationError('REMEDIATION_TARGET_NOT_FOUND', `InferenceService ${target.namespace}/${target.name} not found`);
}

/** `locate` for the patch actions that change the InferenceService itself. */
export async function locateInferenceService(ctx: { writer: ClusterWriter; target: TargetRef }): Promise<{ target: ObjectRef; isvc: ObjectRef; live: KubeObject }> {
  const { ref, object } = await findInferenceService(ctx.writer, ctx.target);
  return { target: ref, isvc: ref, live: object };
}
