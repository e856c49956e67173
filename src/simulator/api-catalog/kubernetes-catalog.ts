/**
 * The built-in API groups of kube-apiserver from 1.14 on, with the releases that serve each
 * version (deprecated betas removed in 1.22 / 1.25 / 1.26, the GA versions that replaced them).
 */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

const v1 = [{ version: 'v1' }];
const all = ['all'];

export const KUBERNETES: Product = {
  id: 'kubernetes',
  releases: minorReleases(1, 14, 33),
  kinds: [
    ...groupKinds('', 'separate', [
      { kind: 'Pod', short: ['po'], categories: all, subresources: ['log'], versions: v1 },
      { kind: 'Event', short: ['ev'], status: false, versions: v1 },
      { kind: 'ConfigMap', short: ['cm'], status: false, versions: v1 },
      { kind: 'Service', short: ['svc'], categories: all, versions: v1 },
      { kind: 'Endpoints', plural: 'endpoints', short: ['ep'], status: false, versions: v1 },
      { kind: 'Namespace', short: ['ns'], cluster: true, versions: v1 },
      { kind: 'Secret', status: false, versions: v1 },
      { kind: 'ServiceAccount', short: ['sa'], status: false, versions: v1 },
      { kind: 'ResourceQuota', short: ['quota'], versions: v1 },
      { kind: 'LimitRange', short: ['limits'], status: false, versions: v1 },
      { kind: 'Node', short: ['no'], cluster: true, versions: v1 },
      { kind: 'PersistentVolumeClaim', short: ['pvc'], versions: v1 },
      { kind: 'PersistentVolume', short: ['pv'], cluster: true, versions: v1 },
      { kind: 'ReplicationController', short: ['rc'], categories: all, versions: v1 },
      { kind: 'PodTemplate', status: false, versions: v1 },
    ]),
    ...groupKinds('apps', 'separate', [
      { kind: 'Deployment', short: ['deploy'], categories: all, versions: v1 },
      { kind: 'ReplicaSet', short: ['rs'], categories: all, versions: v1 },
      { kind: 'StatefulSet', short: ['sts'], categories: all, versions: v1 },
      { kind: 'DaemonSet', short: ['ds'], categories: all, versions: v1 },
      { kind: 'ControllerRevision', status: false, versions: v1 },
    ]),
    ...groupKinds('batch', 'separate', [
      { kind: 'Job', categories: all, versions: v1 },
      {
        kind: 'CronJob',
        short: ['cj'],
        categories: all,
        versions: [
          { version: 'v1', from: '1.21' },
          { version: 'v1beta1', until: '1.24' },
        ],
      },
    ]),
    ...groupKinds('autoscaling', 'separate', [
      {
        kind: 'HorizontalPodAutoscaler',
        short: ['hpa'],
        categories: all,
        versions: [
          { version: 'v1' },
          { version: 'v2', from: '1.23' },
          { version: 'v2beta1', until: '1.24' },
          { version: 'v2beta2', until: '1.25' },
        ],
      },
    ]),
    ...groupKinds('networking.k8s.io', 'separate', [
      {
        kind: 'Ingress',
        plural: 'ingresses',
        short: ['ing'],
        versions: [
          { version: 'v1', from: '1.19' },
          { version: 'v1beta1', until: '1.21' },
        ],
      },
      {
        kind: 'IngressClass',
        plural: 'ingressclasses',
        cluster: true,
        status: false,
        versions: [
          { version: 'v1', from: '1.19' },
          { version: 'v1beta1', from: '1.18', until: '1.21' },
        ],
      },
      { kind: 'NetworkPolicy', plural: 'networkpolicies', short: ['netpol'], status: false, versions: v1 },
    ]),
    ...groupKinds('extensions', 'separate', [
      { kind: 'Ingress', plural: 'ingresses', short: ['ing'], versions: [{ version: 'v1beta1', until: '1.21' }] },
    ]),
    ...groupKinds('policy', 'separate', [
      {
        kind: 'PodDisruptionBudget',
        short: ['pdb'],
        versions: [
          { version: 'v1', from: '1.21' },
          { version: 'v1beta1', until: '1.24' },
        ],
      },
      {
        kind: 'PodSecurityPolicy',
        plural: 'podsecuritypolicies',
        short: ['psp'],
        cluster: true,
        status: false,
        versions: [{ version: 'v1beta1', until: '1.24' }],
      },
    ]),
    ...groupKinds('rbac.authorization.k8s.io', 'separate', [
      { kind: 'Role', status: false, versions: v1 },
      { kind: 'RoleBinding', status: false, versions: v1 },
      { kind: 'ClusterRole', cluster: true, status: false, versions: v1 },
      { kind: 'ClusterRoleBinding', cluster: true, status: false, versions: v1 },
    ]),
    ...groupKinds('coordination.k8s.io', 'separate', [{ kind: 'Lease', status: false, versions: v1 }]),
    ...groupKinds('events.k8s.io', 'separate', [
      {
        kind: 'Event',
        short: ['ev'],
        status: false,
        versions: [
          { version: 'v1', from: '1.19' },
          { version: 'v1beta1', until: '1.24' },
        ],
      },
    ]),
    ...groupKinds('discovery.k8s.io', 'separate', [
      {
        kind: 'EndpointSlice',
        status: false,
        versions: [
          { version: 'v1', from: '1.21' },
          { version: 'v1beta1', from: '1.17', until: '1.24' },
        ],
      },
    ]),
    ...groupKinds('storage.k8s.io', 'separate', [
      { kind: 'StorageClass', plural: 'storageclasses', short: ['sc'], cluster: true, status: false, versions: v1 },
      { kind: 'CSIDriver', cluster: true, status: false, versions: [{ version: 'v1', from: '1.18' }] },
      { kind: 'VolumeAttachment', cluster: true, versions: v1 },
    ]),
    ...groupKinds('apiextensions.k8s.io', 'separate', [
      {
        kind: 'CustomResourceDefinition',
        short: ['crd', 'crds'],
        cluster: true,
        categories: ['api-extensions'],
        versions: [
          { version: 'v1', from: '1.16' },
          { version: 'v1beta1', until: '1.21' },
        ],
      },
    ]),
    // v1beta1 and v1 of a webhook configuration differ only in defaults: the API server serves one
    // object at both versions (a configuration written as v1beta1 is listed by a v1 client)
    ...groupKinds('admissionregistration.k8s.io', 'none', [
      {
        kind: 'MutatingWebhookConfiguration',
        cluster: true,
        status: false,
        categories: ['api-extensions'],
        versions: [
          { version: 'v1', from: '1.16' },
          { version: 'v1beta1', until: '1.21' },
        ],
      },
      {
        kind: 'ValidatingWebhookConfiguration',
        cluster: true,
        status: false,
        categories: ['api-extensions'],
        versions: [
          { version: 'v1', from: '1.16' },
          { version: 'v1beta1', until: '1.21' },
        ],
      },
    ]),
    ...groupKinds('scheduling.k8s.io', 'separate', [
      { kind: 'PriorityClass', plural: 'priorityclasses', short: ['pc'], cluster: true, status: false, versions: v1 },
    ]),
    ...groupKinds('node.k8s.io', 'separate', [
      {
        kind: 'RuntimeClass',
        plural: 'runtimeclasses',
        cluster: true,
        status: false,
        versions: [{ version: 'v1', from: '1.20' }],
      },
    ]),
  ],
};
