/**
 * The contract every playbook implements (playbooks/*.ts, registered in playbooks/index.ts): an id,
 * the finding codes it may emit, optionally the reads it wants in the first wave (`firstWave`), and `run(ctx)`, which reads
 * the cluster through `ctx.reader` and returns findings with their evidence. A playbook never writes
 * to the cluster, never renders, and never decides the root cause (the runner orders findings).
 */
import type { DiagnosisConfig } from '../config.js';
import type { FindingCode } from '../findings/catalog.js';
import type { Finding } from '../findings/types.js';
import type { ClusterReader } from '../kube/cluster-reader.js';
import type { CustomResource } from '../kube/resources.js';
import type { InferenceServiceObject } from '../kube/schemas.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';

/** The InferenceService under diagnosis, as found in the cluster. */
export interface DiagnosisTarget {
  namespace: string;
  name: string;
  resource: CustomResource;
  /** e.g. serving.kserve.io/v1beta1 */
  apiVersion: string;
  /** The object read (an LLMInferenceService parses with the same loose schema). */
  isvc: InferenceServiceObject;
  /** Set for an LLMInferenceService. */
  kind?: 'llmisvc';
}

/** Everything a playbook gets: built once per diagnosis. */
export interface DiagnosisContext {
  target: DiagnosisTarget;
  /** Read-only, memoised per diagnosis. */
  reader: ClusterReader;
  config: DiagnosisConfig;
  /** Log, condition and event patterns that map to findings. */
  signatures: SignatureCatalog;
  signal: AbortSignal;
  now: () => Date;
}

/** What the first wave knows of the service before the InferenceService answers. */
export interface FirstWaveTarget {
  namespace: string;
  name: string;
  /** The InferenceService label selector under the API group the cluster most likely serves it with. */
  labelSelector: string;
}

/**
 * One area of the debug guide. `run` returns [] when it finds nothing, and throws only when it
 * cannot observe the cluster; the runner reports that while the other playbooks' results still show.
 */
export interface Playbook {
  id: string;
  /** The kind of service it diagnoses: an InferenceService when unset, else KServe's LLMInferenceService. */
  kind?: 'llmisvc';
  title: string;
  emits: readonly FindingCode[];
  run(ctx: DiagnosisContext): Promise<Finding[]>;
  /**
   * Optional: the reads `run` will make that depend only on the name and namespace (and the
   * config), started through the same memoised reader together with the InferenceService lookup
   * (the first wave), so `run` finds them answered. See src/diagnosis/first-wave.ts.
   */
  firstWave?(reader: ClusterReader, target: FirstWaveTarget, config: DiagnosisConfig): Array<Promise<unknown>>;
}
