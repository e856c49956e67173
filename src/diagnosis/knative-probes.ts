/**
 * Reading Knative's ingress probes: the status code in a networking controller's or gateway's log
 * line, the Knative release (which releases probe best-effort), JSON log lines made readable.
 */
import type { V1Pod } from '@kubernetes/client-node';

/** "... want [200], got 403" (prober), or an envoy access line '"GET / HTTP/1.1" 302 UAEX'. */
const PROBE_STATUS = [
  /\bgot (\d{3})\b/,
  /response status is (\d{3})\b/,
  /"\s(\d{3})\s(?:UAEX|-|NR|URX|UAEX,)/,
  /status(?: code)?[ :=]+(\d{3})\b/i,
];

export function probeStatusOf(line: string): number | undefined {
  for (const pattern of PROBE_STATUS) {
    const m = pattern.exec(line);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The Knative release a pod or object is labelled with ("v0.11.1"). */
export function knativeReleaseOf(labels: Record<string, string> | undefined): string | undefined {
  const v = labels?.['serving.knative.dev/release'] ?? labels?.['app.kubernetes.io/version'];
  return v ? (v.startsWith('v') ? v : `v${v}`) : undefined;
}

export function knativeVersion(pods: V1Pod[]): string | undefined {
  for (const p of pods) {
    const v = knativeReleaseOf(p.metadata?.labels);
    if (v) return v;
  }
  return undefined;
}

/** Best-effort probes came with 0.11.2 and 0.14.0; 0.12.x and 0.13.x lack them. */
export function lacksBestEffortProbes(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (major > 0) return false;
  if (minor < 11) return true;
  if (minor === 11) return patch < 2;
  return minor === 12 || minor === 13;
}

/** A Knative JSON log line as "ts level logger: msg" (no stacktrace); other lines unchanged. */
export function condenseJsonLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const o = JSON.parse(line) as Record<string, unknown>;
    const msg = o.msg ?? o.message;
    if (typeof msg !== 'string') return line;
    return [o.ts ?? o.timestamp, o.level ?? o.severity, o.logger ? `${String(o.logger)}:` : undefined, msg]
      .filter((x) => x !== undefined)
      .join(' ');
  } catch {
    return line;
  }
}
