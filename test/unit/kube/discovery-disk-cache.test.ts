/** The CLI's discovery hints on disk: one file per API server, read back until kubectl's 6 hours pass; unreadable files are no hint. */
import { afterAll, expect, it } from '@jest/globals';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { diskDiscoveryHints } from '../../../src/kube/discovery-disk-cache.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterAll(removeTempDirs);

const groups = {
  versions: new Map([
    ['serving.kubeflow.org', ['v1alpha2']],
    ['serving.knative.dev', ['v1', 'v1beta1']],
  ]),
};

it('keeps one hint per API server and gives it back until it is 6 hours old', () => {
  const dir = path.join(tempDir('isvc-hints-'), 'discovery');
  let now = 1_000_000;
  const hints = diskDiscoveryHints(dir, () => now);
  expect(hints.read('https://a:6443')).toBeUndefined();
  hints.write('https://a:6443', groups);
  expect(hints.read('https://a:6443')?.versions).toEqual(groups.versions);
  // when discovery gave it: a reader takes a recent hint unchecked
  expect(hints.read('https://a:6443')?.answeredAt).toBe(1_000_000);
  expect(hints.read('https://b:6443')).toBeUndefined();
  now += 6 * 60 * 60_000 + 1;
  expect(hints.read('https://a:6443')).toBeUndefined();
});

it('treats a damaged file as no hint', () => {
  const dir = path.join(tempDir('isvc-hints-'), 'discovery');
  const hints = diskDiscoveryHints(dir);
  hints.write('https://a:6443', groups);
  const [file] = readdirSync(dir);
  writeFileSync(path.join(dir, file!), '{not json');
  expect(hints.read('https://a:6443')).toBeUndefined();
});
