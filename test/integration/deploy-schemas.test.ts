/**
 * Every directory of deploy/ renders objects that match the Kubernetes (1.33) and prometheus-operator
 * schemas (scripts/manifest-schemas.mjs, which CI runs through scripts/check-manifests.mjs), and the
 * check is not blind: an unknown field at any depth, a wrong type, a missing required field, an
 * unknown field in a CRD and a kind without a schema are each reported at their path.
 */
import { readdirSync } from 'node:fs';
import { schemaProblems } from '../../scripts/manifest-schemas.mjs';
import { findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';

const dirs = ['deploy/overlays', 'deploy/examples', 'deploy/optional'].flatMap((parent) =>
  readdirSync(parent, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `${parent}/${d.name}`),
);

it('every overlay, example and optional piece matches the schemas, unknown fields included', async () => {
  const objects = dirs.flatMap((dir) => renderKustomization(dir).objects);
  expect(new Set(objects.map((o) => o.kind))).toEqual(
    new Set([
      'Namespace',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'NetworkPolicy',
      'StatefulSet',
      'Service',
      'PodMonitor',
      'PrometheusRule',
    ]),
  );
  expect(await schemaProblems(objects)).toEqual([]);
}, 60_000);

it('reports unknown fields, wrong types, missing required fields, CRD mistakes and unknown kinds, each at its path', async () => {
  const objs = renderKustomization('deploy/examples/serverless').objects;
  const broken = structuredClone([
    findObject(objs, 'Deployment', 'isvc-doctor')!,
    findObject(objs, 'PodMonitor', 'isvc-doctor')!,
    findObject(objs, 'NetworkPolicy', 'isvc-doctor-metrics')!,
  ]) as Array<ManifestObject & { spec: any }>;
  const [deployment, podMonitor, policy] = broken as [any, any, any];
  const c = deployment.spec.template.spec.containers[0];
  c.livenessProbe.httpGet.paht = '/healthz'; // unknown, deep
  c.resources.limit = { memory: '1Gi' }; // unknown, in the same container: both are reported
  deployment.spec.replicas = 'two'; // wrong type
  delete deployment.spec.selector; // required
  podMonitor.spec.podMetricsEndpoints[0].intervall = '30s'; // unknown field of the CRD
  policy.spec.ingress[0].form = policy.spec.ingress[0].from; // a typo kubectl apply would drop
  const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
  const problems = await schemaProblems([...broken, widget]);
  const at = (path: string) => problems.filter((p) => p.path === path).map((p) => `${p.object}: ${p.message}`);
  expect(at('spec.template.spec.containers[0].livenessProbe.httpGet.paht')).toEqual([
    "Deployment isvc-doctor/isvc-doctor: unknown field 'paht'",
  ]);
  expect(at('spec.template.spec.containers[0].resources.limit')).toEqual([
    "Deployment isvc-doctor/isvc-doctor: unknown field 'limit'",
  ]);
  expect(at('spec.replicas')).toEqual(expect.arrayContaining(['Deployment isvc-doctor/isvc-doctor: must be integer']));
  expect(at('spec')).toEqual(
    expect.arrayContaining(['Deployment isvc-doctor/isvc-doctor: must have required property selector']),
  );
  expect(at('spec.podMetricsEndpoints[0].intervall')).toEqual([
    "PodMonitor isvc-doctor/isvc-doctor: unknown field 'intervall'",
  ]);
  expect(at('spec.ingress[0].form')).toEqual(["NetworkPolicy isvc-doctor/isvc-doctor-metrics: unknown field 'form'"]);
  expect(at('')).toEqual(['Widget w: no schema for example.com/v1 Widget']);
}, 60_000);
