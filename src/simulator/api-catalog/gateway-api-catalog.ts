/**
 * Gateway API (gateway.networking.k8s.io), standard channel, as each release's CRDs serve it:
 * GatewayClass, Gateway and HTTPRoute at v1beta1 from 0.5 and v1 from 1.0 (v1alpha2 until 0.7),
 * ReferenceGrant, GRPCRoute from 1.1, BackendTLSPolicy from 1.4, ListenerSet and TLSRoute from 1.5.
 * Every version of a kind shares one schema (strategy None).
 */
import { groupKinds, type Product, type VersionSpan } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

const core: VersionSpan[] = [
  { version: 'v1', from: '1.0' },
  { version: 'v1beta1' },
  { version: 'v1alpha2', until: '0.7' },
];
const categories = ['gateway-api'];

export const GATEWAY_API: Product = {
  id: 'gatewayApi',
  releases: [...minorReleases(0, 5, 8), ...minorReleases(1, 0, 5)],
  kinds: groupKinds('gateway.networking.k8s.io', 'none', [
    { kind: 'GatewayClass', plural: 'gatewayclasses', cluster: true, short: ['gc'], categories, versions: core },
    { kind: 'Gateway', short: ['gtw'], categories, versions: core },
    { kind: 'HTTPRoute', categories, versions: core },
    {
      kind: 'ReferenceGrant',
      short: ['refgrant'],
      categories,
      status: false,
      versions: [
        { version: 'v1', from: '1.5' },
        { version: 'v1beta1', from: '0.6' },
        { version: 'v1alpha2', until: '1.0' },
      ],
    },
    { kind: 'GRPCRoute', categories, versions: [{ version: 'v1', from: '1.1' }] },
    { kind: 'BackendTLSPolicy', plural: 'backendtlspolicies', categories, versions: [{ version: 'v1', from: '1.4' }] },
    { kind: 'ListenerSet', categories, versions: [{ version: 'v1', from: '1.5' }] },
    { kind: 'TLSRoute', categories, versions: [{ version: 'v1', from: '1.5' }] },
  ]),
};
