/**
 * Knative Serving: serving.knative.dev (v1alpha1 until 0.18, v1beta1 from 0.7 to 0.18, v1 from
 * 0.9; strategy None until 0.12, the conversion webhook from 0.13) and the internal groups that
 * serving-core installs with it.
 */
import { groupKinds, type VersionSpan, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

const serving: VersionSpan[] = [
  { version: 'v1', from: '0.9' },
  { version: 'v1beta1', from: '0.7', until: '0.18' },
  { version: 'v1alpha1', until: '0.18' },
];
const categories = ['all', 'knative', 'serving'];
const internal = [{ version: 'v1alpha1' }];

export const KNATIVE: Product = {
  id: 'knative',
  releases: [...minorReleases(0, 1, 26), ...minorReleases(1, 0, 23)],
  conversionNoneUntil: '0.12',
  kinds: [
    ...groupKinds('serving.knative.dev', 'knative-serving', [
      { kind: 'Service', short: ['kservice', 'ksvc'], categories, versions: serving },
      { kind: 'Configuration', short: ['config', 'cfg'], categories, versions: serving },
      { kind: 'Revision', short: ['rev'], categories, versions: serving },
      { kind: 'Route', short: ['rt'], categories, versions: serving },
    ]),
    ...groupKinds('serving.knative.dev', 'none', [
      {
        kind: 'DomainMapping',
        short: ['dm'],
        categories,
        versions: [
          { version: 'v1beta1', from: '0.24' },
          { version: 'v1alpha1', from: '0.19', until: '1.18' },
        ],
      },
    ]),
    ...groupKinds('autoscaling.internal.knative.dev', 'none', [
      {
        kind: 'PodAutoscaler',
        short: ['kpa', 'pa'],
        categories: ['knative-internal', 'autoscaling'],
        versions: internal,
      },
      {
        kind: 'Metric',
        categories: ['knative-internal', 'autoscaling'],
        versions: [{ version: 'v1alpha1', from: '0.10' }],
      },
    ]),
    ...groupKinds('networking.internal.knative.dev', 'none', [
      {
        kind: 'Ingress',
        plural: 'ingresses',
        short: ['kingress', 'king'],
        categories: ['knative-internal', 'networking'],
        versions: [{ version: 'v1alpha1', from: '0.7' }],
      },
      {
        kind: 'ClusterIngress',
        short: ['kcingress'],
        cluster: true,
        categories: ['knative-internal', 'networking'],
        versions: [{ version: 'v1alpha1', until: '0.8' }],
      },
      { kind: 'ServerlessService', short: ['sks'], categories: ['knative-internal', 'networking'], versions: internal },
      { kind: 'Certificate', short: ['kcert'], categories: ['knative-internal', 'networking'], versions: internal },
      {
        kind: 'ClusterDomainClaim',
        short: ['cdc'],
        cluster: true,
        categories: ['knative-internal', 'networking'],
        versions: [{ version: 'v1alpha1', from: '0.22' }],
      },
    ]),
    ...groupKinds('caching.internal.knative.dev', 'none', [
      { kind: 'Image', short: ['img'], categories: ['knative-internal', 'caching'], versions: internal },
    ]),
  ],
};
