/** Every product the catalog knows, with its display name and the API groups it owns. */
import type { Product, ProductId } from './catalog-kind.js';
import { GATEWAY_API } from './gateway-api-catalog.js';
import { INFERENCE_EXTENSION } from './inference-extension-catalog.js';
import { ISTIO } from './istio-catalog.js';
import { KEDA } from './keda-catalog.js';
import { KFSERVING } from './kfserving-catalog.js';
import { KNATIVE } from './knative-catalog.js';
import { KSERVE } from './kserve-catalog.js';
import { KUBERNETES } from './kubernetes-catalog.js';
import { LWS } from './lws-catalog.js';

/** Products whose components run with companions (KServe) come before those companions. */
export const PRODUCTS: readonly Product[] = [
  KUBERNETES,
  KSERVE,
  KFSERVING,
  KNATIVE,
  ISTIO,
  GATEWAY_API,
  INFERENCE_EXTENSION,
  LWS,
  KEDA,
];

export const PRODUCT_NAMES: Record<ProductId, string> = {
  kubernetes: 'Kubernetes',
  kserve: 'KServe',
  kfserving: 'KFServing',
  knative: 'Knative Serving',
  istio: 'Istio',
  gatewayApi: 'Gateway API',
  inferenceExtension: 'Gateway API Inference Extension',
  lws: 'LeaderWorkerSet',
  keda: 'KEDA',
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
  const product = PRODUCTS.find((p) => p.id === id);
  if (!product) throw new Error(`no product ${id} in the API catalog`);
  return product;
}
