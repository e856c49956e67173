/**
 * kube-apiserver's order of API versions (version.CompareKubeAwareVersionStrings): GA before beta
 * before alpha, higher numbers first within each (v2, v1, v1beta2, v1beta1, v1alpha3…), anything
 * else last in alphabetical order. The first served version is the group's preferred version.
 */
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(version: string): [number, number, number] | undefined {
  const match = KUBE_VERSION.exec(version);
  if (!match) return undefined;
  const stage = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return [stage, Number(match[1]), Number(match[3] ?? 0)];
}

export function compareKubeVersions(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a.localeCompare(b);
  return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
}
