/**
 * Releases a snapshot's objects give away: Knative's `serving.knative.dev/release` label, the
 * `app.kubernetes.io/name` + `app.kubernetes.io/version` labels of KServe's and Knative's objects,
 * controller and sidecar image tags (kserve-controller, kfserving-controller, istio/proxyv2,
 * pilot) and a Node's kubelet version. The most frequent value per product wins.
 */
import { isPlainObject } from '../kube-object.js';
import type { ProductId } from './catalog-kind.js';
import { formatRelease, parseRelease } from './release-version.js';

const IMAGE_HINTS: [ProductId, RegExp][] = [
  ['kserve', /kserve[-/]controller:(v?\d+\.\d+[\w.-]*)/],
  ['kfserving', /kfserving[-/]controller:(v?\d+\.\d+[\w.-]*)/],
  ['istio', /istio\/(?:proxyv2|pilot|proxy_init):(\d+\.\d+[\w.-]*)/],
];
const NAME_LABEL_HINTS: Record<string, ProductId> = {
  kserve: 'kserve',
  kfserving: 'kfserving',
  'knative-serving': 'knative',
};

export function releaseHints(objects: readonly Record<string, unknown>[]): Partial<Record<ProductId, string>> {
  const counts = new Map<ProductId, Map<string, number>>();
  const count = (product: ProductId, text: string | undefined): void => {
    const release = text ? parseRelease(text) : undefined;
    if (!release) return;
    const perProduct = counts.get(product) ?? new Map<string, number>();
    counts.set(product, perProduct);
    const key = formatRelease(release);
    perProduct.set(key, (perProduct.get(key) ?? 0) + 1);
  };
  for (const object of objects) {
    const labels = (
      isPlainObject(object.metadata) && isPlainObject(object.metadata.labels) ? object.metadata.labels : {}
    ) as Record<string, unknown>;
    count('knative', stringOf(labels['serving.knative.dev/release']));
    const named = NAME_LABEL_HINTS[String(labels['app.kubernetes.io/name'])];
    if (named) count(named, stringOf(labels['app.kubernetes.io/version']));
    if (object.kind === 'Node')
      count(
        'kubernetes',
        stringOf((object.status as { nodeInfo?: { kubeletVersion?: unknown } } | undefined)?.nodeInfo?.kubeletVersion),
      );
    forEachImage(object, (image) => {
      for (const [product, pattern] of IMAGE_HINTS) count(product, pattern.exec(image)?.[1]);
    });
  }
  const hints: Partial<Record<ProductId, string>> = {};
  for (const [product, perProduct] of counts) hints[product] = [...perProduct].sort((a, b) => b[1] - a[1])[0]![0];
  return hints;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Calls `visit` with every `image` string anywhere in the object (pod specs, templates, runtimes). */
function forEachImage(value: unknown, visit: (image: string) => void, depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) for (const v of value) forEachImage(v, visit, depth + 1);
  else if (isPlainObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'image' && typeof v === 'string') visit(v);
      else if (typeof v === 'object' && v !== null && key !== 'metadata' && key !== 'status')
        forEachImage(v, visit, depth + 1);
    }
  }
}
