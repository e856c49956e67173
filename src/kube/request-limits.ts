/**
 * Limits on every request a process sends to the Kubernetes API through client-node (config
 * `kubernetes.requestTimeout`, `kubernetes.qps`, `kubernetes.burst`):
 *
 * - **a timeout per request**: a black-holed API server (connections accepted, no answer) fails
 *   the request after `timeoutMs` instead of hanging a diagnosis forever; the reader and the
 *   writer turn the abort into a KubeTimeoutError naming the request (`isRequestTimeout`).
 * - **a token bucket shared by the whole process** (client-go's QPS/burst): 1,000 services failing
 *   at once cannot send the API server more than `burst` requests at once and `qps` a second after.
 *   Lease renewals and the readiness probe's /version skip the bucket (a storm of diagnoses must
 *   not cost the watcher its Lease), but keep the timeout.
 *
 * Applied to a KubeConfig (`limitRequests`): every API client made from it (`makeApiClient`,
 * `makeKubeClients`) authenticates each request through `applySecurityAuthentication`, which is
 * where the bucket is waited for and the abort signal set, and where the request's own undici
 * Agent is swapped for the KubeConfig's kept one (kept-connections.ts). client-node's watches
 * (long-lived streams) authenticate there too, for the kept connections only: they skip the bucket
 * and take no timeout (the watch's own inactivity timer ends a silent one).
 */
import type { DispatcherOptions, KubeConfig } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';
import { keptDispatcher } from './kept-connections.js';
import { TokenBucket } from './token-bucket.js';

export interface KubeRequestLimits {
  /** Per request; 0: none. */
  timeoutMs: number;
  /** Requests a second once the burst is spent; 0: no limit. */
  qps: number;
  burst: number;
}

/** kubectl's QPS and burst (client-go's own 5/10 would slow one diagnosis of 10 parallel reads), 10 s a request. */
export const DEFAULT_KUBE_REQUEST_LIMITS: Readonly<KubeRequestLimits> = { timeoutMs: 10_000, qps: 50, burst: 100 };

/** Paths that skip the bucket (they keep the timeout). */
const UNLIMITED_PATHS = [/\/apis\/coordination\.k8s\.io\//, /\/version\/?$/];

const buckets = new Map<string, TokenBucket>();

/** The process's bucket for a qps/burst pair: every KubeConfig limited with the same values shares it. */
export function processBucket(qps: number, burst: number): TokenBucket {
  const key = `${qps}/${burst}`;
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = new TokenBucket(qps, burst);
    buckets.set(key, bucket);
  }
  return bucket;
}

const LIMITS = Symbol('isvc-doctor.requestLimits');
const LAST_DISPATCHER_OPTIONS = Symbol('isvc-doctor.lastDispatcherOptions');

type Limited = KubeConfig & {
  [LIMITS]?: { limits: KubeRequestLimits; bucket: TokenBucket };
  /** What createDispatcherOptions answered last: read while the same synchronous step makes the dispatcher. */
  [LAST_DISPATCHER_OPTIONS]?: DispatcherOptions;
};

/**
 * Applies the limits to every request of clients made from `kubeConfig` (a later call replaces
 * the earlier limits); returns the same KubeConfig.
 */
export function limitRequests<K extends KubeConfig>(
  kubeConfig: K,
  limits: KubeRequestLimits = DEFAULT_KUBE_REQUEST_LIMITS,
  bucket: TokenBucket = processBucket(limits.qps, limits.burst),
): K {
  const kc = kubeConfig as Limited;
  const wrapped = kc[LIMITS] !== undefined;
  kc[LIMITS] = { limits, bucket };
  if (wrapped) return kubeConfig;
  const dispatcherOptions = kc.createDispatcherOptions.bind(kc);
  kc.createDispatcherOptions = (cluster, agentOptions) => {
    const options = dispatcherOptions(cluster, agentOptions);
    kc[LAST_DISPATCHER_OPTIONS] = options;
    return options;
  };
  const authenticate = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    const current = kc[LIMITS];
    if (!current) throw new Error('limitRequests: the KubeConfig lost its limits');
    const path = pathAndQueryOf(context.getUrl());
    const watch = /[?&]watch=(true|1)(&|$)/.test(path.search);
    if (!watch && !UNLIMITED_PATHS.some((p) => p.test(path.pathname))) await current.bucket.take();
    // client-node makes the request's dispatcher from createDispatcherOptions' answer and sets it
    // in one synchronous step: the options read here are this request's
    const setDispatcher = context.setDispatcher.bind(context);
    context.setDispatcher = (fresh: Dispatcher) =>
      setDispatcher(keptDispatcher(kc, kc[LAST_DISPATCHER_OPTIONS], fresh));
    await authenticate(context);
    if (!watch && current.limits.timeoutMs > 0 && !context.getSignal())
      context.setSignal(AbortSignal.timeout(current.limits.timeoutMs));
  };
  return kubeConfig;
}

/** The limits applied to a KubeConfig (null: none). */
export function requestLimitsOf(kubeConfig: KubeConfig): KubeRequestLimits | null {
  return (kubeConfig as Limited)[LIMITS]?.limits ?? null;
}

function pathAndQueryOf(url: string): { pathname: string; search: string } {
  try {
    const { pathname, search } = new URL(url);
    return { pathname, search };
  } catch {
    return { pathname: url, search: '' };
  }
}

/** Whether an error is a request aborted by its timeout (the signal's TimeoutError, as undici's fetch rejects with it). */
export function isRequestTimeout(error: unknown): boolean {
  const e = error as { name?: unknown; type?: unknown; cause?: { name?: unknown } } | null;
  return Boolean(
    e &&
      (e.name === 'AbortError' ||
        e.name === 'TimeoutError' ||
        e.type === 'aborted' ||
        e.cause?.name === 'TimeoutError'),
  );
}
