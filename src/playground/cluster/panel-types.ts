/** What the page's cluster panel receives (plain data, shared with the page's code). */
export interface IsvcRow {
  kind: 'InferenceService' | 'LLMInferenceService';
  namespace: string;
  name: string;
  apiVersion: string;
  ready: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  since?: string;
  generation?: number;
  observedGeneration?: number;
}

export interface BreakAction {
  id:
    | 'lower-memory'
    | 'missing-storage'
    | 'restore-storage'
    | 'canary-traffic'
    | 'drop-max-model-len'
    | 'set-max-model-len'
    | 'own-route'
    | 'managed-route'
    | 'fewer-gpus'
    | 'more-gpus';
  label: string;
  /** What it does, in one line. */
  detail: string;
}
