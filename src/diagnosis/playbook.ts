import type { ClusterReader } from '../kube/cluster-reader.js';
import type { InferenceServiceObject } from '../kube/schemas.js';
import type { CustomResource } from '../kube/resources.js';
import type { FindingCode } from './finding-codes.js';
import type { Finding } from './types.js';
import { DEFAULT_MAX_MEMORY } from '../remediation/memory-cap.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';

/** A link template, e.g. {name: "Grafana", url: "https://grafana/d/kserve?var-namespace={namespace}&var-isvc={name}"}. */
export interface LinkTemplate {
  name: string;
  url: string;
}

/** What a diagnosis may be configured with (the `diagnosis:` key of the config file). */
export interface DiagnosisConfig {
  /** Metrics dashboards and traces for an InferenceService; {namespace}, {name}, {revision}, {component} are filled in. */
  links: LinkTemplate[];
  /** Namespace of the Knative Serving control plane. */
  knativeNamespace: string;
  /** Cap of an offered memory raise, bytes (the bot's `remediation.maxMemory`, so the report offers what a proposal applies). */
  maxMemoryBytes: number;
  /** The signature catalog (a team's files from `diagnosis.signatures`, then the shipped ones); the shipped ones when absent. */
  signatures?: SignatureCatalog;
}

export const DEFAULT_DIAGNOSIS_CONFIG: DiagnosisConfig = { links: [], knativeNamespace: 'knative-serving', maxMemoryBytes: DEFAULT_MAX_MEMORY };

/** The InferenceService under diagnosis, as found in the cluster. */
export interface DiagnosisTarget {
  namespace: string;
  name: string;
  resource: CustomResource;
  /** e.g. serving.kserve.io/v1beta1 */
  apiVersion: string;
  isvc: InferenceServiceObject;
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

/**
 * One area of the debug guide. `run` returns [] when it finds nothing, and throws only when it
 * cannot observe the cluster; the runner reports that while the other playbooks' results still show.
 */
export interface Playbook {
  id: string;
  title: string;
  emits: readonly FindingCode[];
  run(ctx: DiagnosisContext): Promise<Finding[]>;
}
