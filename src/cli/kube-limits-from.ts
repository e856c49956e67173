import { parseDuration } from '../core/duration.js';
import { DEFAULT_KUBE_REQUEST_LIMITS, type KubeRequestLimits } from '../kube/request-limits.js';
import { UsageError } from './usage-error.js';

/** The `kubernetes:` part of a config file (requestTimeout, qps, burst), over the defaults; a bad value is bad input naming the key. */
export function kubeLimitsFrom(raw: unknown, file: string): KubeRequestLimits {
  const section = (raw as { kubernetes?: unknown } | null)?.kubernetes;
  const limits: KubeRequestLimits = { ...DEFAULT_KUBE_REQUEST_LIMITS };
  if (section === undefined || section === null) return limits;
  if (typeof section !== 'object' || Array.isArray(section))
    throw new UsageError(`${file}: kubernetes: expected a mapping`);
  const { requestTimeout, qps, burst, ...rest } = section as {
    requestTimeout?: unknown;
    qps?: unknown;
    burst?: unknown;
  };
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new UsageError(`${file}: kubernetes: unknown key(s) ${unknown.join(', ')}`);
  if (requestTimeout !== undefined) {
    const ms =
      typeof requestTimeout === 'number'
        ? requestTimeout * 1000
        : typeof requestTimeout === 'string'
          ? parseDuration(requestTimeout)
          : null;
    if (ms === null || !(ms > 0))
      throw new UsageError(`${file}: kubernetes.requestTimeout: expected a duration like 10s`);
    limits.timeoutMs = ms;
  }
  if (qps !== undefined) {
    if (typeof qps !== 'number' || !(qps >= 0))
      throw new UsageError(`${file}: kubernetes.qps: expected requests a second (0: no limit)`);
    limits.qps = qps;
  }
  if (burst !== undefined) {
    if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1)
      throw new UsageError(`${file}: kubernetes.burst: expected an integer of at least 1`);
    limits.burst = burst;
  }
  return limits;
}
