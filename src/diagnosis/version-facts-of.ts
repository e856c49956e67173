/** The releases a diagnosis can tell from what it read (signature entries apply by version). */
import type { V1Pod } from '@kubernetes/client-node';
import type { VersionFacts } from '../signatures/signature-catalog.js';
import { versionFacts } from '../signatures/version-facts.js';
import type { DiagnosisContext } from './playbook.js';

export function versionFactsOf(
  ctx: DiagnosisContext,
  pods: readonly V1Pod[],
  more: { images?: Array<string | undefined>; knativeReleases?: Array<string | undefined> } = {},
): VersionFacts {
  const images = pods.flatMap((p) =>
    [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].map((c) => c.image),
  );
  return versionFacts({
    apiVersion: ctx.target.apiVersion,
    images: [...images, ...(more.images ?? [])],
    knativeReleases: more.knativeReleases ?? [],
  });
}
