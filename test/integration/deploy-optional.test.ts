/**
 * Least privilege, opt-in (deploy/optional, deploy/rbac-all-namespaces, deploy/examples):
 * - the overlays apply on a RawDeployment-only cluster: no object in knative-serving, no remediation
 *   binding anywhere, pod logs apart from the read-only ClusterRole and bound cluster-wide only by
 *   deploy/rbac-all-namespaces;
 * - every optional piece only adds objects that no overlay has, and is a plain Kustomization, so it
 *   combines with an overlay under `bases:` on kubectl 1.20 (whose kustomize knows no Components);
 * - the serverless example is the http overlay plus the pieces, nothing else;
 * - the namespaced example binds logs and the watcher in exactly the namespaces its config lists,
 *   nothing of the two cluster-wide, and remediations only where it says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { configFileOf, findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
type Binding = ManifestObject & {
  roleRef: { kind: string; name: string };
  subjects: Array<{ kind: string; name: string; namespace?: string }>;
};

const dirs = (parent: string) =>
  readdirSync(parent, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `${parent}/${d.name}`)
    .sort();
const rendered = new Map<string, ManifestObject[]>();
const objectsOf = (dir: string) => {
  if (!rendered.has(dir)) rendered.set(dir, renderKustomization(dir).objects);
  return rendered.get(dir)!;
};
const id = (o: ManifestObject) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const bindings = (objs: ManifestObject[], role: string) =>
  objs.filter(
    (o) => (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') && (o as Binding).roleRef.name === role,
  ) as Binding[];
const overlays = dirs('deploy/overlays');
const pieces = dirs('deploy/optional');

it('has the optional pieces', () => {
  expect(pieces).toEqual([
    'deploy/optional/knative',
    'deploy/optional/knative-remediation',
    'deploy/optional/monitoring',
    'deploy/optional/remediation-default',
  ]);
});

describe.each(overlays)('%s', (overlay) => {
  it('has nothing in knative-serving and no remediation binding', () => {
    const objs = objectsOf(overlay);
    expect(objs.filter((o) => o.metadata.namespace === 'knative-serving').map(id)).toEqual([]);
    expect(bindings(objs, 'isvc-doctor-remediation').map(id)).toEqual([]);
    // the role itself is there, so that `kubectl create rolebinding --clusterrole=isvc-doctor-remediation` works
    expect(findObject(objs, 'ClusterRole', 'isvc-doctor-remediation')).toBeDefined();
  });

  it('grants pod logs only through isvc-doctor-logs, bound by deploy/rbac-all-namespaces', () => {
    const objs = objectsOf(overlay);
    const withLogs = objs.filter(
      (o) =>
        (o.kind === 'ClusterRole' || o.kind === 'Role') &&
        ((o.rules ?? []) as Rule[]).some((r) => r.resources.includes('pods/log')),
    );
    expect(withLogs.map(id)).toEqual(['ClusterRole /isvc-doctor-logs']);
    expect(bindings(objs, 'isvc-doctor-logs').map(id)).toEqual(['ClusterRoleBinding /isvc-doctor-logs']);
    const allNamespaces = objectsOf('deploy/rbac-all-namespaces').map(id);
    expect(allNamespaces).toEqual(
      expect.arrayContaining(['ClusterRoleBinding /isvc-doctor-logs', 'ClusterRoleBinding /isvc-doctor-watcher']),
    );
    expect(
      objs
        .filter((o) => o.kind === 'ClusterRoleBinding')
        .map(id)
        .sort(),
    ).toEqual([...allNamespaces, 'ClusterRoleBinding /isvc-doctor-diagnosis'].sort());
  });
});

describe.each(pieces)('%s', (piece) => {
  it('is a plain Kustomization that only adds objects no overlay has', () => {
    const kustomization = parseYaml(readFileSync(`${piece}/kustomization.yaml`, 'utf8')) as Record<string, unknown>;
    expect(kustomization.kind ?? 'Kustomization').toBe('Kustomization');
    for (const key of [
      'bases',
      'components',
      'patchesStrategicMerge',
      'patchesJson6902',
      'patches',
      'namespace',
      'commonLabels',
    ])
      expect(kustomization[key]).toBeUndefined();
    const ids = objectsOf(piece).map(id);
    expect(ids.length).toBeGreaterThan(0);
    for (const overlay of overlays)
      expect(
        objectsOf(overlay)
          .map(id)
          .filter((x) => ids.includes(x)),
      ).toEqual([]);
  });
});

it('the serverless example is the http overlay plus every optional piece, nothing else', () => {
  const expected = [...objectsOf('deploy/overlays/http'), ...pieces.flatMap(objectsOf)]
    .map((o) => JSON.stringify(o))
    .sort();
  expect(
    objectsOf('deploy/examples/serverless')
      .map((o) => JSON.stringify(o))
      .sort(),
  ).toEqual(expected);
});

describe('the namespaced example', () => {
  const dir = 'deploy/examples/namespaced';

  it('binds logs and the watcher in exactly the namespaces its config lists, and nothing of them cluster-wide', () => {
    const objs = objectsOf(dir);
    const config = parseYaml(configFileOf(objs)) as { namespaces: string[] };
    expect(config.namespaces.length).toBeGreaterThan(0);
    for (const role of ['isvc-doctor-logs', 'isvc-doctor-watcher']) {
      const bound = bindings(objs, role);
      expect(bound.filter((b) => b.kind === 'ClusterRoleBinding').map(id)).toEqual([]);
      expect(bound.map((b) => b.metadata.namespace).sort()).toEqual([...config.namespaces].sort());
      for (const b of bound)
        expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'isvc-doctor', namespace: 'isvc-doctor' }]);
    }
    expect(objs.filter((o) => o.kind === 'ClusterRoleBinding').map(id)).toEqual([
      'ClusterRoleBinding /isvc-doctor-diagnosis',
    ]);
    expect(bindings(objs, 'isvc-doctor-remediation').map((b) => `${b.kind} ${b.metadata.namespace}`)).toEqual([
      'RoleBinding team-a',
    ]);
  });

  it('runs in Socket Mode like deploy/overlays/socket-mode, but for the config and the bindings', () => {
    const strip = (objs: ManifestObject[]) =>
      objs
        .filter(
          (o) =>
            !(
              o.kind === 'ConfigMap' ||
              (o.kind === 'Deployment' && o.metadata.name === 'isvc-doctor') ||
              /Binding$/.test(o.kind)
            ),
        )
        .map((o) => JSON.stringify(o))
        .sort();
    expect(strip(objectsOf(dir))).toEqual(strip(objectsOf('deploy/overlays/socket-mode')));
    const podSpec = (objs: ManifestObject[]) =>
      JSON.stringify((findObject(objs, 'Deployment', 'isvc-doctor')!.spec as { template: unknown }).template).replace(
        /isvc-doctor-config-[a-z0-9]+/g,
        'CONFIG',
      );
    expect(podSpec(objectsOf(dir))).toBe(podSpec(objectsOf('deploy/overlays/socket-mode')));
  });
});
