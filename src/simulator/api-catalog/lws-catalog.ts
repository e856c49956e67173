/** LeaderWorkerSet (leaderworkerset.x-k8s.io/v1): one kind, served at v1 since its first release, with status and scale. */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

export const LWS: Product = {
  id: 'lws',
  releases: minorReleases(0, 1, 10),
  kinds: groupKinds('leaderworkerset.x-k8s.io', 'none', [
    { kind: 'LeaderWorkerSet', short: ['lws'], subresources: ['scale'], versions: [{ version: 'v1' }] },
  ]),
};
