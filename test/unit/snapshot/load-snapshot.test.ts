import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSnapshot, SnapshotError } from '../../../src/snapshot/load-snapshot.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterAll(removeTempDirs);

const FIXTURES = path.resolve('test/fixtures/simulator');

async function tempSnapshot(files: Record<string, string>): Promise<string> {
  const dir = tempDir('snapshot-');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('loadSnapshot', () => {
  it('loads objects, flattening List documents', async () => {
    const snapshot = await loadSnapshot(path.join(FIXTURES, 'basic'));
    const kinds = snapshot.objects.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'Event')).toHaveLength(2);
    expect(kinds).not.toContain('List');
    expect(kinds).toEqual(
      expect.arrayContaining(['InferenceService', 'Pod', 'ConfigMap', 'ClusterRbacConfig', 'ModelPolicy']),
    );
  });

  it('maps current and previous logs by namespace/pod/container', async () => {
    const snapshot = await loadSnapshot(path.join(FIXTURES, 'basic'));
    const pod = 'kserve-test/sklearn-iris-predictor-00001-deployment-5f7d4b9996-hzrnc';
    expect(snapshot.logs.get(`${pod}/storage-initializer`)).toContain('RuntimeError: Failed to fetch model');
    expect(snapshot.logs.get(`${pod}/storage-initializer#previous`)).toContain('previous attempt');
    expect(snapshot.logs.has(`${pod}/kserve-container`)).toBe(false);
  });

  it('reads access rules and the raw expect.yaml', async () => {
    const snapshot = await loadSnapshot(path.join(FIXTURES, 'basic'));
    expect(snapshot.deny).toContainEqual({ verb: 'get', resource: 'pods/log', namespace: 'restricted' });
    expect(snapshot.deny).toContainEqual({ verb: 'list', resource: 'clusterrbacconfigs' });
    expect(snapshot.expect).toMatchObject({ target: { namespace: 'kserve-test', name: 'sklearn-iris' } });
    expect(snapshot.config).toBeUndefined();
  });

  it('names the file and line of YAML that does not parse', async () => {
    const dir = path.join(FIXTURES, 'bad-yaml');
    const error = await loadSnapshot(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    const e = error as SnapshotError;
    expect(e.file).toBe(path.join(dir, 'objects.yaml'));
    expect(e.line).toBe(9);
    expect(e.message).toMatch(new RegExp(`^${path.join(dir, 'objects.yaml')}:9: `));
    expect(e.message).not.toContain('\n');
  });

  it('rejects a missing folder and a folder without objects.yaml', async () => {
    await expect(loadSnapshot('/nonexistent/snapshot')).rejects.toThrow(
      /^\/nonexistent\/snapshot: snapshot folder does not exist$/,
    );
    const empty = await tempSnapshot({ 'expect.yaml': 'must: []\n' });
    await expect(loadSnapshot(empty)).rejects.toThrow(SnapshotError);
    await expect(loadSnapshot(empty)).rejects.toThrow(/objects\.yaml: missing objects\.yaml/);
  });

  it('rejects a bad access.yaml and objects without a name', async () => {
    const badAccess = await tempSnapshot({
      'objects.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
      'access.yaml': 'deny:\n- {verb: get}\n',
    });
    await expect(loadSnapshot(badAccess)).rejects.toThrow(/access\.yaml: deny\[0\] needs a verb and a resource/);
    const noName = await tempSnapshot({ 'objects.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n' });
    await expect(loadSnapshot(noName)).rejects.toThrow(/objects\.yaml: document 1: object without metadata.name/);
  });

  it('skips empty documents and parses config.yaml', async () => {
    const dir = await tempSnapshot({
      'objects.yaml': '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n',
      'config.yaml': 'slack: {channel: x}\n',
    });
    const snapshot = await loadSnapshot(dir);
    expect(snapshot.objects).toHaveLength(1);
    expect(snapshot.config).toEqual({ slack: { channel: 'x' } });
    expect(snapshot.deny).toEqual([]);
  });

  it('fills apiVersion and kind of the items of a typed list (PodList, EventList) as the API returns them', async () => {
    const dir = await tempSnapshot({
      'objects.yaml': 'apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p, namespace: default}\n',
    });
    const snapshot = await loadSnapshot(dir);
    expect(snapshot.objects).toEqual([
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } },
    ]);
  });
});
