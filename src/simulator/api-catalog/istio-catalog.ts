/**
 * Istio's CRDs: networking (v1alpha3, v1beta1 from 1.5, v1 from 1.22), security (v1beta1 from
 * 1.4, v1 from 1.22), the rbac.istio.io and authentication.istio.io APIs removed in 1.6, telemetry
 * and extensions. Every version of a kind shares one schema (strategy None).
 */
import { groupKinds, type Product, type VersionSpan } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

const networking: VersionSpan[] = [
  { version: 'v1', from: '1.22' },
  { version: 'v1beta1', from: '1.5' },
  { version: 'v1alpha3' },
];
const security = (from: string): VersionSpan[] => [
  { version: 'v1', from: '1.22' },
  { version: 'v1beta1', from },
];
const legacy = [{ version: 'v1alpha1', until: '1.5' }];
const categories = ['istio-io', 'networking-istio-io'];

export const ISTIO: Product = {
  id: 'istio',
  releases: minorReleases(1, 0, 27),
  kinds: [
    ...groupKinds('networking.istio.io', 'none', [
      { kind: 'Gateway', short: ['gw'], categories, versions: networking },
      { kind: 'VirtualService', short: ['vs'], categories, versions: networking },
      { kind: 'DestinationRule', short: ['dr'], categories, versions: networking },
      { kind: 'ServiceEntry', plural: 'serviceentries', short: ['se'], categories, versions: networking },
      {
        kind: 'Sidecar',
        categories,
        versions: [
          { version: 'v1', from: '1.22' },
          { version: 'v1beta1', from: '1.5' },
          { version: 'v1alpha3', from: '1.1' },
        ],
      },
      { kind: 'EnvoyFilter', categories, versions: [{ version: 'v1alpha3' }] },
      {
        kind: 'WorkloadEntry',
        plural: 'workloadentries',
        short: ['we'],
        categories,
        versions: [
          { version: 'v1', from: '1.22' },
          { version: 'v1beta1', from: '1.8' },
          { version: 'v1alpha3', from: '1.6' },
        ],
      },
      {
        kind: 'WorkloadGroup',
        short: ['wg'],
        categories,
        versions: [
          { version: 'v1', from: '1.22' },
          { version: 'v1beta1', from: '1.17' },
          { version: 'v1alpha3', from: '1.8' },
        ],
      },
      { kind: 'ProxyConfig', categories, versions: [{ version: 'v1beta1', from: '1.13' }] },
    ]),
    ...groupKinds('security.istio.io', 'none', [
      {
        kind: 'AuthorizationPolicy',
        plural: 'authorizationpolicies',
        short: ['ap'],
        categories: ['istio-io', 'security-istio-io'],
        versions: security('1.4'),
      },
      {
        kind: 'PeerAuthentication',
        short: ['pa'],
        categories: ['istio-io', 'security-istio-io'],
        versions: security('1.5'),
      },
      {
        kind: 'RequestAuthentication',
        short: ['ra'],
        categories: ['istio-io', 'security-istio-io'],
        versions: security('1.5'),
      },
    ]),
    ...groupKinds('rbac.istio.io', 'none', [
      { kind: 'ClusterRbacConfig', cluster: true, categories: ['istio-io', 'rbac-istio-io'], versions: legacy },
      { kind: 'RbacConfig', cluster: true, categories: ['istio-io', 'rbac-istio-io'], versions: legacy },
      { kind: 'ServiceRole', categories: ['istio-io', 'rbac-istio-io'], versions: legacy },
      { kind: 'ServiceRoleBinding', categories: ['istio-io', 'rbac-istio-io'], versions: legacy },
    ]),
    ...groupKinds('authentication.istio.io', 'none', [
      { kind: 'Policy', plural: 'policies', categories: ['istio-io', 'authentication-istio-io'], versions: legacy },
      {
        kind: 'MeshPolicy',
        plural: 'meshpolicies',
        cluster: true,
        categories: ['istio-io', 'authentication-istio-io'],
        versions: legacy,
      },
    ]),
    ...groupKinds('telemetry.istio.io', 'none', [
      {
        kind: 'Telemetry',
        plural: 'telemetries',
        short: ['telemetry'],
        categories: ['istio-io', 'telemetry-istio-io'],
        versions: [
          { version: 'v1', from: '1.22' },
          { version: 'v1alpha1', from: '1.11' },
        ],
      },
    ]),
    ...groupKinds('extensions.istio.io', 'none', [
      {
        kind: 'WasmPlugin',
        categories: ['istio-io', 'extensions-istio-io'],
        versions: [{ version: 'v1alpha1', from: '1.12' }],
      },
    ]),
  ],
};
