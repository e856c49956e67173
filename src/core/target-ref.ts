/** The InferenceService a command, a job or a diagnosis is about. */
export interface TargetRef {
  namespace: string;
  name: string;
  /** Which kind the name means; unset: whichever exists (the InferenceService when both do). */
  kind?: TargetKind;
  /**
   * The namespace is the bot's default, not one the person asked for: when the name is not there but
   * in exactly one other namespace the bot may read, the diagnosis goes there and says so. (The CLI
   * and MCP keep kubectl's rule, the context's namespace, and name the other namespaces instead.)
   */
  namespaceDefaulted?: boolean;
}

/** An InferenceService or KServe's LLMInferenceService. */
export type TargetKind = 'isvc' | 'llmisvc';

/** "namespace/name": the identity incidents, mutes and Redis keys use. */
export function targetKey(target: TargetRef): string {
  return `${target.namespace}/${target.name}`;
}
