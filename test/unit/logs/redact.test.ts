import { describe, expect, it } from '@jest/globals';
import { redact } from '../../../src/logs/redact.js';

const FAKE_SLACK_TOKEN = ['xoxb', 'FAKE0not0a0real0token'].join('-');

describe('redact', () => {
  it.each([
    ['s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG@my-bucket/model', ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI']],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', ['eyJhbGciOiJIUzI1NiJ9', 'dozjgNryP4J3']],
    ['"authorization": "Basic dXNlcjpwYXNzd29yZA=="', ['dXNlcjpwYXNzd29yZA']],
    ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', ['wJalrXUtnFEMI']],
    ['connecting to postgres://admin:hunter2@db:5432/models', ['hunter2']],
    ['https://storage.googleapis.com/b/o?X-Goog-Signature=abcdef0123456789&alt=media', ['abcdef0123456789']],
    ['password: s3cr3t!', ['s3cr3t!']],
    // built at run time so the repository holds nothing that looks like a real Slack token
    [`token ${FAKE_SLACK_TOKEN}`, [FAKE_SLACK_TOKEN]],
  ])('removes the secret from %s', (line, secrets) => {
    const out = redact(line);
    for (const s of secrets) expect(out).not.toContain(s);
    expect(out).toContain('[REDACTED]');
  });

  it('leaves ordinary log lines alone', () => {
    const line = 'RuntimeError: Failed to fetch model. The path or model gs://kfserving-samples/models/sklearn/iris-1 does not exist.';
    expect(redact(line)).toBe(line);
    const probe = '"GET / HTTP/1.1" 302 UAEX "-" "-" 0 269 21 21 "10.88.0.31" "Go-http-client/1.1"';
    expect(redact(probe)).toBe(probe);
  });
});
