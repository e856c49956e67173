/** Every product the catalog knows, with its display name and the API groups it owns. */
import type { Product, ProductId } from './catalog-kind.js';
import { ISTIO } from './istio-catalog.js';
import { KFSERVING } from './kfserving-catalog.js';
import { KNATIVE } from './knative-catalog.js';
import { KSERVE } from './kserve-catalog.js';
import { KUBERNETES } from './kubernetes-catalog.js';

export const PRODUCTS: readonly Product[] = [KUBERNETES, KSERVE, KFSERVING, KNATIVE, ISTIO];

export const PRODUCT_NAMES: Record<ProductId, string> = {
  kubernetes: 'Kubernetes',
  kserve: 'KServe',
  kfserving: 'KFServing',
  knative: 'Knative Serving',
  istio: 'Istio',
};

/** The Kubernetes release a cluster runs when neither cluster.yaml nor its objects say. */
export const DEFAULT_KUBERNETES_RELEASE = '1.29';

const owners = new Map<string, Product>();
for (const product of PRODUCTS) for (const kind of product.kinds) owners.set(kind.group, product);

/** The product that installs an API group, if the catalog knows it. */
export function productOfGroup(group: string): Product | undefined {
  return owners.get(group);
}

export function productById(id: ProductId): Product {
  return PRODUCTS.find((p) => p.id === id)!;
}
