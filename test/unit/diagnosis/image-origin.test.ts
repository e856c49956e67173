/** Where an image that does not exist comes from: the controller's inferenceservice-config, by repository or whole image. */
import { describe, expect, it } from '@jest/globals';
import {
  configuredImage,
  registryOf,
  splitImage,
  TAG_MISSING,
  UNAUTHORIZED,
  UNREACHABLE,
} from '../../../src/diagnosis/image-origin.js';

const config = {
  explainers: JSON.stringify({
    alibi: { image: 'gcr.io/kfserving/alibi-explainer', defaultImageVersion: '0.2.3', allowedImageVersions: ['0.2.3'] },
  }),
  storageInitializer: JSON.stringify({ image: 'kserve/storage-initializer:v0.8.0', memoryRequest: '100Mi' }),
  ingress: 'not json',
};

describe('image origin', () => {
  it('splits an image into repository and tag (a registry port is not a tag)', () => {
    expect(splitImage('gcr.io/kfserving/alibi-explainer:0.2.3')).toEqual({
      repo: 'gcr.io/kfserving/alibi-explainer',
      tag: '0.2.3',
    });
    expect(splitImage('localhost:5000/model')).toEqual({ repo: 'localhost:5000/model', tag: 'latest' });
  });

  it('finds the config entry that names the repository, with its path', () => {
    expect(configuredImage(config, 'gcr.io/kfserving/alibi-explainer')).toEqual({
      path: 'explainers.alibi',
      entry: JSON.parse(config.explainers).alibi,
    });
  });

  it('finds an entry that names the whole image, and nothing for an image the config does not name', () => {
    expect(configuredImage(config, 'kserve/storage-initializer', 'kserve/storage-initializer:v0.8.0')?.path).toBe(
      'storageInitializer',
    );
    expect(configuredImage(config, 'harbor.example.com/team/model')).toBeUndefined();
  });

  it('tells a missing tag, a refusal and an unreachable registry apart', () => {
    const missing =
      'Unable to fetch image "gcr.io/kfserving/alibi-explainer:0.2.3": MANIFEST_UNKNOWN: Failed to fetch "0.2.3"';
    const refused = 'failed to resolve image to digest: unsupported status code 401; body: Not Authorized';
    const unreachable = 'Get "https://10.10.47.1/v2/": dial tcp 10.10.47.1:443: connect: connection refused';
    expect(
      [missing, refused, unreachable].map((m) => [TAG_MISSING.test(m), UNAUTHORIZED.test(m), UNREACHABLE.test(m)]),
    ).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, true],
    ]);
    expect(registryOf('10.10.47.1/myhub/sklearnserver:v0.4.0')).toBe('10.10.47.1');
  });
});
