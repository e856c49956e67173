import { describe, expect, it } from '@jest/globals';
import { keyWords, secretKeyStrength } from '../../../src/logs/secret-key-name.js';

describe('secretKeyStrength', () => {
  it('splits names into words the way they are written', () => {
    expect(keyWords('AWSSecretAccessKey')).toEqual(['aws', 'secret', 'access', 'key']);
    expect(keyWords('//registry/:_authToken')).toEqual(['registry', 'auth', 'token']);
    expect(keyWords('x-amz-security-token')).toEqual(['x', 'amz', 'security', 'token']);
  });

  it.each([
    'password',
    'DB_PASSWORD',
    'PGPASSWORD',
    'clientSecret',
    'aws_secret_access_key',
    'AccountKey',
    'SharedAccessKey',
    'x-api-key',
    'HF_TOKEN',
    '_authToken',
    'sig',
    'ssh-privatekey',
    '.dockerconfigjson',
  ])('%s is a strong secret key', (key) => {
    expect(secretKeyStrength(key)).toBe('strong');
  });

  it.each(['auth', 'credentials', 'Signature', 'DB_PASS', 'db_pwd'])(
    '%s is a weak secret key (the value must look like a secret)',
    (key) => {
      expect(secretKeyStrength(key)).toBe('weak');
    },
  );

  it.each([
    'secretName',
    'secretKeyRef',
    'SharedAccessKeyName',
    'tokenizer',
    'max_tokens',
    'pad_token',
    'eos_token_id',
    'private_key_id',
    'cache_key',
    'tls.key',
    'password_file',
    'PWD',
    'token_type',
    'authorization',
  ])('%s is not a secret key', (key) => {
    expect(secretKeyStrength(key)).toBeUndefined();
  });
});
