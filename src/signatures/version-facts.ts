/**
 * What a diagnosis can tell of the cluster's releases without asking for more: the tag of KServe's
 * own images in the service's pods (storage-initializer, the built-in model servers, the agent) or
 * of the controller, the InferenceService's API group (serving.kubeflow.org is KFServing, before
 * 0.7), and Knative's `serving.knative.dev/release` label on the objects read.
 */
import semver from 'semver';
import type { VersionFacts } from './signature-catalog.js';

/** Images KServe / KFServing build and tag with their release (not the third-party runtimes they run). */
const KSERVE_IMAGE =
  /(?:^|\/)(?:kserve|kfserving)\/(?:[a-z0-9-]*(?:server|initializer|controller|agent|router|logger|batcher|explainer|transformer)[a-z0-9-]*|kserve-[a-z0-9-]+|kfserving-[a-z0-9-]+):(v?\d+\.\d+(?:\.\d+)?(?:-rc\d+)?)(?:$|[-@])/;

/** The KServe release an image was built for ("0.7.0"), when it is one of KServe's own with a release tag. */
export function kserveVersionOfImage(image: string | undefined): string | undefined {
  const m = image ? KSERVE_IMAGE.exec(image) : null;
  if (!m) return undefined;
  return semver.coerce(m[1])?.version;
}

/** "v0.11.1" → "0.11.1"; undefined when not a version. */
export function versionOfLabel(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const m = /^v?(\d+\.\d+(?:\.\d+)?)/.exec(value);
  return m ? semver.coerce(m[1])?.version : undefined;
}

export interface VersionClues {
  /** e.g. serving.kserve.io/v1beta1 */
  apiVersion: string;
  /** Images seen in the service's pods or the controller's. */
  images: readonly (string | undefined)[];
  /** `serving.knative.dev/release` (or app.kubernetes.io/version) label values of Knative objects read. */
  knativeReleases: readonly (string | undefined)[];
}

export function versionFacts(clues: VersionClues): VersionFacts {
  const facts: VersionFacts = {};
  const kserve = clues.images.map(kserveVersionOfImage).find((v) => v !== undefined);
  if (kserve) facts.kserve = kserve;
  else if (clues.apiVersion.startsWith('serving.kubeflow.org/')) facts.kserve = '<0.7.0';
  else if (clues.apiVersion.startsWith('serving.kserve.io/')) facts.kserve = '>=0.7.0';
  const knative = clues.knativeReleases.map(versionOfLabel).find((v) => v !== undefined);
  if (knative) facts.knative = knative;
  return facts;
}
