/**
 * How the catalog describes what a product release installs: each kind with the API versions it is
 * served at and the releases of each, and how its versions relate (conversion).
 */
export type ProductId =
  | 'kubernetes'
  | 'kserve'
  | 'kfserving'
  | 'knative'
  | 'istio'
  | 'gatewayApi'
  | 'inferenceExtension'
  | 'lws'
  | 'keda';

export interface VersionSpan {
  version: string;
  /** First release that serves this version (inclusive); absent: every catalogued release. */
  from?: string;
  /** Last release that serves it (inclusive); absent: still served. */
  until?: string;
}

/**
 * How the versions of one kind share objects:
 * - `separate`: each version is its own resource (built-in kinds whose schemas differ and that the
 *   snapshot writes in the version it means);
 * - `none`: one object served at every version with only apiVersion changed (CRD strategy None);
 * - a converter id: one object, converted as that product's conversion webhook does.
 */
export type ConversionKind = 'separate' | 'none' | 'kfserving-inferenceservice' | 'knative-serving';

export interface CatalogKind {
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames: string[];
  categories?: string[];
  /** Subresources: "status", "log", "scale"… */
  subresources: string[];
  versions: VersionSpan[];
  conversion: ConversionKind;
  /** Only `get`/`list` (and `create` for reviews); absent: every verb. */
  verbs?: string[];
  /**
   * An optional part of the product's install that serves this kind (KServe's `llmisvc`): installed
   * when cluster.yaml states the product's release, or when an object of one of its kinds is present.
   */
  component?: string;
}

export interface KindSpec {
  kind: string;
  plural?: string;
  cluster?: boolean;
  short?: string[];
  categories?: string[];
  status?: boolean;
  subresources?: string[];
  versions: VersionSpan[];
  verbs?: string[];
  component?: string;
}

export interface Product {
  id: ProductId;
  /** Catalogued releases, oldest first. */
  releases: string[];
  kinds: CatalogKind[];
  /** Release used for a conversion strategy: 'none' up to this release (inclusive), webhooks after. */
  conversionNoneUntil?: string;
  /**
   * Products an optional component runs with, by the product's release (e.g. KServe's `llmisvc`:
   * Gateway API, the Inference Extension, LeaderWorkerSet, KEDA): where the component is installed
   * and cluster.yaml does not state them, they are installed at these releases.
   */
  companions?: { component: string; releases: Record<string, Partial<Record<ProductId, string>>> };
}

/** The kinds of one API group, with the defaults most kinds share. */
export function groupKinds(group: string, conversion: ConversionKind, specs: KindSpec[]): CatalogKind[] {
  return specs.map((s) => ({
    group,
    kind: s.kind,
    plural: s.plural ?? `${s.kind.toLowerCase()}s`,
    namespaced: !s.cluster,
    shortNames: s.short ?? [],
    ...(s.categories ? { categories: s.categories } : {}),
    subresources: [...(s.status === false ? [] : ['status']), ...(s.subresources ?? [])],
    versions: s.versions,
    conversion,
    ...(s.verbs ? { verbs: s.verbs } : {}),
    ...(s.component ? { component: s.component } : {}),
  }));
}
