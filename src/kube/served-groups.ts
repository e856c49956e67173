/**
 * The API groups a cluster serves and their versions (discovery, `GET /apis`), remembered per
 * cluster for a few minutes: a diagnosis asks only for versions the cluster serves, and skips
 * groups it does not have (no Knative on a RawDeployment cluster, no rbac.istio.io on Istio >= 1.6).
 */
export interface ServedGroups {
  /** Served versions of each group, the preferred one first. */
  versions: ReadonlyMap<string, readonly string[]>;
  /** When discovery gave this answer (epoch ms), when known (a hint from an earlier process). */
  answeredAt?: number;
}

/** How long a process goes by a discovery answer without asking again. */
const TTL_MS = 5 * 60_000;

/** Whether an answer is as recent as one this process would still go by without asking again. */
export function answeredRecently(groups: ServedGroups, now = Date.now()): boolean {
  return groups.answeredAt !== undefined && now - groups.answeredAt >= 0 && now - groups.answeredAt <= TTL_MS;
}
const cache = new Map<string, { at: number; groups: ServedGroups }>();

export function cachedServedGroups(cluster: string, now = Date.now()): ServedGroups | undefined {
  const hit = cache.get(cluster);
  if (!hit) return undefined;
  if (now - hit.at > TTL_MS) {
    cache.delete(cluster);
    return undefined;
  }
  return hit.groups;
}

export function rememberServedGroups(cluster: string, groups: ServedGroups, now = Date.now()): void {
  cache.set(cluster, { at: now, groups });
}

/**
 * A remembered answer from an earlier process (the CLI keeps one per cluster on disk, as kubectl
 * keeps its discovery cache): only a hint. A reader uses it to send its first wave at once, and
 * checks it against a fresh discovery sent in the same wave; a hint that turns out wrong costs a
 * second try, never a finding. A hint answered within the time a process goes by its own
 * remembered answer is taken as that would be, unchecked, unless the InferenceService is not found
 * by it.
 */
export interface DiscoveryHints {
  read(cluster: string): ServedGroups | undefined;
  write(cluster: string, groups: ServedGroups): void;
}

let hints: DiscoveryHints | null = null;

/** The process's hint store (the CLI sets one; the bot keeps discovery in memory and needs none). */
export function useDiscoveryHints(store: DiscoveryHints | null): void {
  hints = store;
}

export function discoveryHints(): DiscoveryHints | null {
  return hints;
}

/** Whether two answers name the same groups and versions. */
export function sameServedGroups(a: ServedGroups, b: ServedGroups): boolean {
  if (a.versions.size !== b.versions.size) return false;
  for (const [group, versions] of a.versions) {
    const other = b.versions.get(group);
    if (!other || other.length !== versions.length || other.some((v, i) => v !== versions[i])) return false;
  }
  return true;
}

/** Builds the view from an APIGroupList (`{groups: [{name, versions: [{version}], preferredVersion}]}`). */
export function servedGroupsOf(list: {
  groups?: Array<{ name: string; versions?: Array<{ version: string }>; preferredVersion?: { version: string } }>;
}): ServedGroups {
  const versions = new Map<string, string[]>();
  for (const g of list.groups ?? []) {
    const all = (g.versions ?? []).map((v) => v.version);
    const preferred = g.preferredVersion?.version;
    versions.set(g.name, preferred ? [preferred, ...all.filter((v) => v !== preferred)] : all);
  }
  return { versions };
}

/** The first of `candidates` the cluster serves for `group`; null when none is (or the group is absent). */
export function firstServed(groups: ServedGroups, group: string, candidates: readonly string[]): string | null {
  const served = groups.versions.get(group);
  if (!served) return null;
  return candidates.find((v) => served.includes(v)) ?? null;
}
