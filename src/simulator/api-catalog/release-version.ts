/**
 * Product releases as major.minor pairs ("0.11", "1.9", "1.29"): parsing what snapshots and labels
 * write ("v0.11.1", "knative-v1.10.0", "1.20"), comparing, and range checks. Patch numbers never
 * change which APIs a release serves, so they are dropped.
 */
export interface Release {
  major: number;
  minor: number;
}

const RELEASE = /^(?:[a-z]+-)?v?(\d{1,3})\.(\d{1,3})(?:\.\d+)?(?:[-+][0-9A-Za-z.-]*)?$/;

export function parseRelease(text: string): Release | undefined {
  const match = RELEASE.exec(text.trim());
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

export function compareReleases(a: Release, b: Release): number {
  return a.major - b.major || a.minor - b.minor;
}

export function formatRelease(release: Release): string {
  return `${release.major}.${release.minor}`;
}

/** Whether `release` lies in [from, until] (either bound may be absent). */
export function releaseInRange(release: Release, from?: string, until?: string): boolean {
  if (from !== undefined && compareReleases(release, parseRelease(from)!) < 0) return false;
  return until === undefined || compareReleases(release, parseRelease(until)!) <= 0;
}

/** "0.7".."0.16" style lists: every minor from `from` to `until` of one major. */
export function minorReleases(major: number, fromMinor: number, untilMinor: number): string[] {
  return Array.from({ length: untilMinor - fromMinor + 1 }, (_, i) => `${major}.${fromMinor + i}`);
}
