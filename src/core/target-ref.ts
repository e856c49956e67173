/** The InferenceService a command, a job or a diagnosis is about. */
export interface TargetRef {
  namespace: string;
  name: string;
}

/** "namespace/name": the identity incidents, mutes and Redis keys use. */
export function targetKey(target: TargetRef): string {
  return `${target.namespace}/${target.name}`;
}
