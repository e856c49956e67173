/** KEDA 2.x (keda.sh/v1alpha1): ScaledObject, ScaledJob, TriggerAuthentication and, from 2.1, ClusterTriggerAuthentication. */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

const v1alpha1 = [{ version: 'v1alpha1' }];

export const KEDA: Product = {
  id: 'keda',
  releases: minorReleases(2, 0, 20),
  kinds: groupKinds('keda.sh', 'none', [
    { kind: 'ScaledObject', short: ['so'], versions: v1alpha1 },
    { kind: 'ScaledJob', short: ['sj'], versions: v1alpha1 },
    { kind: 'TriggerAuthentication', short: ['ta', 'triggerauth'], versions: v1alpha1 },
    {
      kind: 'ClusterTriggerAuthentication',
      cluster: true,
      short: ['cta', 'clustertriggerauth'],
      versions: [{ version: 'v1alpha1', from: '2.1' }],
    },
  ]),
};
