/**
 * The Gateway API Inference Extension: InferencePool in inference.networking.x-k8s.io (v1alpha1 in
 * 0.1, v1alpha2 from 0.2) and, from 1.0, in inference.networking.k8s.io at v1; InferenceModel
 * (until 0.5), then InferenceObjective, InferencePoolImport and InferenceModelRewrite. The
 * extension's own 1.5 manifests drop the v1alpha2 InferencePool, but KServe's clusters keep serving
 * it (KServe 0.20 still creates a v1alpha2 pool next to the v1 one wherever that CRD is installed),
 * so the catalog keeps it served.
 */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

export const INFERENCE_EXTENSION: Product = {
  id: 'inferenceExtension',
  releases: [...minorReleases(0, 1, 5), ...minorReleases(1, 0, 5)],
  kinds: [
    ...groupKinds('inference.networking.k8s.io', 'none', [
      { kind: 'InferencePool', short: ['infpool'], versions: [{ version: 'v1', from: '1.0' }] },
    ]),
    ...groupKinds('inference.networking.x-k8s.io', 'none', [
      {
        kind: 'InferencePool',
        short: ['xinfpool'],
        versions: [
          { version: 'v1alpha2', from: '0.2' },
          { version: 'v1alpha1', until: '0.1' },
        ],
      },
      {
        kind: 'InferenceModel',
        versions: [
          { version: 'v1alpha2', from: '0.2', until: '0.5' },
          { version: 'v1alpha1', until: '0.1' },
        ],
      },
      { kind: 'InferenceObjective', versions: [{ version: 'v1alpha2', from: '1.0' }] },
      { kind: 'InferencePoolImport', short: ['infpimp'], versions: [{ version: 'v1alpha1', from: '1.1' }] },
      { kind: 'InferenceModelRewrite', versions: [{ version: 'v1alpha2', from: '1.2' }] },
    ]),
  ],
};
