/** The redaction engine: one sample per named rule, and what spans lines (key blocks, traceback source lines). */
import { describe, expect, it } from '@jest/globals';
import { redact, redactLine, redactLines, redactText, SECRET_RULES } from '../../../src/logs/redact.js';
import { secretGenerator, type SecretGenerator } from '../../fixtures/secrets/secret-generator.mjs';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Per rule: a line holding a secret (made at run time), the secret, and what must stay visible. */
const RULE_SAMPLES: Record<string, (g: SecretGenerator) => { line: string; secret: string; kept: string }> = {
  'private-key-inline': (g) => {
    const body = g.b64(64);
    return {
      line: `"private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n"`,
      secret: body,
      kept: '-----BEGIN PRIVATE KEY-----[REDACTED:private-key]-----END PRIVATE KEY-----',
    };
  },
  jwt: (g) => {
    const sig = g.b64url(43);
    return {
      line: `token ${b64('{"alg":"RS256"}').replace(/=+$/, '')}.${b64('{"sub":"reader"}').replace(/=+$/, '')}.${sig} rejected`,
      secret: sig,
      kept: 'token [REDACTED:jwt] rejected',
    };
  },
  'basic-auth-flag': (g) => {
    const pw = g.password();
    return {
      line: `+ curl -u deploy:${pw} https://artifacts.acme.internal/m.bst`,
      secret: pw,
      kept: 'curl -u deploy:[REDACTED] https://artifacts.acme.internal/m.bst',
    };
  },
  'prose-secret': (g) => {
    const pw = g.password();
    return { line: `db password is ${pw}, user is ml`, secret: pw, kept: 'db password is [REDACTED], user is ml' };
  },
  'aws-access-key-id': (g) => {
    const id = g.upperDigits(16);
    return { line: `using key AKIA${id} for s3`, secret: id, kept: 'using key AKIA[REDACTED] for s3' };
  },
  'aws-session-token': (g) => {
    const t = g.b64(120);
    return { line: `session FwoGZXIvYXdz${t} expired`, secret: t, kept: 'FwoGZXIvYXdz[REDACTED] expired' };
  },
  'github-fine-grained-pat': (g) => {
    const t = `${g.alnum(22)}_${g.alnum(59)}`;
    return { line: `token github_pat_${t}`, secret: t, kept: 'token github_pat_[REDACTED]' };
  },
  'github-token': (g) => {
    const t = g.alnum(36);
    return {
      line: `https://ghs_${t}@github.com/acme/models`,
      secret: t,
      kept: 'ghs_[REDACTED]@github.com/acme/models',
    };
  },
  'gitlab-token': (g) => {
    const t = g.b64url(20);
    return { line: `PRIVATE_CI=glpat-${t} ok`, secret: t, kept: 'PRIVATE_CI=glpat-[REDACTED] ok' };
  },
  'docker-hub-token': (g) => {
    const t = g.b64url(27);
    return { line: `echo dckr_pat_${t} | docker login`, secret: t, kept: 'echo dckr_pat_[REDACTED] | docker login' };
  },
  'huggingface-token': (g) => {
    const t = g.alnum(34);
    return {
      line: `download(repo_id="gpt2", use_auth=hf_${t})`,
      secret: t,
      kept: 'download(repo_id="gpt2", use_auth=hf_[REDACTED])',
    };
  },
  'anthropic-key': (g) => {
    const t = g.b64url(95);
    return { line: `invalid x sk-ant-api03-${t}`, secret: t, kept: 'invalid x sk-ant-api03-[REDACTED]' };
  },
  'openai-project-key': (g) => {
    const t = g.b64url(100);
    return { line: `key sk-proj-${t} denied`, secret: t, kept: 'key sk-proj-[REDACTED] denied' };
  },
  'openai-key': (g) => {
    const t = g.alnum(48);
    return {
      line: `Incorrect API key provided: sk-${t}.`,
      secret: t,
      kept: 'Incorrect API key provided: sk-[REDACTED].',
    };
  },
  'stripe-key': (g) => {
    const t = g.alnum(24);
    return {
      line: `Invalid API Key provided: rk_live_${t}`,
      secret: t,
      kept: 'Invalid API Key provided: rk_live_[REDACTED]',
    };
  },
  'slack-token': (g) => {
    const t = `${g.digits(12)}-${g.digits(13)}-${g.alnum(24)}`;
    return { line: `invalid_auth for xoxb-${t}`, secret: t, kept: 'invalid_auth for xoxb-[REDACTED]' };
  },
  'slack-app-token': (g) => {
    const t = `1-A0${g.upperDigits(9)}-${g.digits(13)}-${g.hex(64)}`;
    return { line: `app token xapp-${t}`, secret: t, kept: 'app token xapp-[REDACTED]' };
  },
  'slack-webhook-url': (g) => {
    const t = `T${g.upperDigits(8)}/B${g.upperDigits(10)}/${g.alnum(24)}`;
    return {
      line: `POST https://hooks.slack.com/services/${t} 403`,
      secret: t,
      kept: 'POST https://hooks.slack.com/services/[REDACTED] 403',
    };
  },
  'google-oauth-token': (g) => {
    const t = g.b64url(150);
    return { line: `last token ya29.${t}`, secret: t, kept: 'last token ya29.[REDACTED]' };
  },
  'google-refresh-token': (g) => {
    const t = g.b64url(100);
    return { line: `refresh 1//0${t} revoked`, secret: t, kept: 'refresh 1//0[REDACTED] revoked' };
  },
  'google-api-key': (g) => {
    const t = g.b64url(35);
    return { line: `api AIza${t} quota`, secret: t, kept: 'api AIza[REDACTED] quota' };
  },
  'npm-token': (g) => {
    const t = g.alnum(36);
    return { line: `using npm_${t}`, secret: t, kept: 'using npm_[REDACTED]' };
  },
  'sendgrid-key': (g) => {
    const t = `${g.b64url(22)}.${g.b64url(43)}`;
    return { line: `api key SG.${t} unauthorized`, secret: t, kept: 'api key SG.[REDACTED] unauthorized' };
  },
  'twilio-api-key': (g) => {
    const t = g.hex(32);
    return { line: `Authenticate (key SK${t})`, secret: t, kept: 'Authenticate (key SK[REDACTED])' };
  },
  'databricks-token': (g) => {
    const t = g.hex(32);
    return { line: `Invalid access token dapi${t}`, secret: t, kept: 'Invalid access token dapi[REDACTED]' };
  },
  'pypi-token': (g) => {
    const t = `AgEIcHlwaS5vcmc${g.b64url(60)}`;
    return { line: `upload with pypi-${t}`, secret: t.slice(15), kept: 'upload with pypi-[REDACTED]' };
  },
  'replicate-token': (g) => {
    const t = g.alnum(37);
    return { line: `predictions with r8_${t}: 401`, secret: t, kept: 'predictions with r8_[REDACTED]: 401' };
  },
  'groq-key': (g) => {
    const t = g.alnum(52);
    return { line: `client gsk_${t} rejected`, secret: t, kept: 'client gsk_[REDACTED] rejected' };
  },
  'shopify-token': (g) => {
    const t = g.hex(32);
    return { line: `store shpat_${t} 401`, secret: t, kept: 'store shpat_[REDACTED] 401' };
  },
  'azure-ad-client-secret': (g) => {
    const t = `${g.alnum(3)}8Q~${g.alnum(34)}`;
    return {
      line: `ClientSecretCredential(tenant, app, ${t})`,
      secret: t,
      kept: 'ClientSecretCredential(tenant, app, [REDACTED])',
    };
  },
  'basic-auth': (g) => {
    const t = b64(`reader:${g.password()}`);
    return { line: `\\r\\nAuthorization: Basic ${t}\\r\\n`, secret: t, kept: 'Authorization: Basic [REDACTED]\\r\\n' };
  },
  'bearer-token': (g) => {
    const t = g.b64url(40);
    return { line: `sent BEARER ${t} and got 401`, secret: t, kept: 'sent BEARER [REDACTED] and got 401' };
  },
  'random-base64': (g) => {
    const t = g.b64(40);
    return { line: `    key_pair = ['${t}']`, secret: t, kept: "    key_pair = ['[REDACTED:aws-secret-key]']" };
  },
  'authorization-header': (g) => {
    const t = g.lower(12);
    return { line: `-H 'AUTHORIZATION: Token ${t}'`, secret: t, kept: "-H 'AUTHORIZATION: Token [REDACTED]'" };
  },
  'cookie-header': (g) => {
    const t = g.b64url(32);
    return {
      line: `Cookie: authservice_session=${t}; path=/`,
      secret: t,
      kept: 'Cookie: authservice_session=[REDACTED]; path=/',
    };
  },
  'url-userinfo': (g) => {
    const t = `${g.alnum(6)}@${g.alnum(6)}`;
    return {
      line: `redis://:${t}@cache.acme.internal:6379/0`,
      secret: t,
      kept: 'redis://:[REDACTED]@cache.acme.internal:6379/0',
    };
  },
  'url-query-secret': (g) => {
    const t = g.b64url(30);
    return {
      line: `GET https://storage.googleapis.com/b/o?X-Goog-Signature=${t}&alt=media`,
      secret: t,
      kept: '?X-Goog-Signature=[REDACTED]&alt=media',
    };
  },
  'secret-flag': (g) => {
    const t = `${g.word()} ${g.word()} ${g.digits(3)}`;
    return {
      line: `+ cli --user reader --password "${t}" --dest /mnt/models`,
      secret: t,
      kept: '--user reader --password "[REDACTED]" --dest /mnt/models',
    };
  },
  'short-password-flag': (g) => {
    const t = g.password();
    return {
      line: `+ mysql -h db -u reader -p${t} features`,
      secret: t,
      kept: '+ mysql -h db -u reader -p[REDACTED] features',
    };
  },
  'key-value': (g) => {
    const t = g.password();
    return {
      line: `{"level":"error","clientSecret":"${t}","client_id":"sync"}`,
      secret: t,
      kept: '{"level":"error","clientSecret":"[REDACTED]","client_id":"sync"}',
    };
  },
  'env-dump': (g) => {
    const t = g.hex(32);
    return { line: `TWILIO_AUTH_TOKEN        ${t}`, secret: t, kept: 'TWILIO_AUTH_TOKEN        [REDACTED]' };
  },
  'env-entry': (g) => {
    const pw = g.password();
    return {
      line: `env: [{name: DB_PASSWORD, value: ${pw}}, {name: MODEL, value: iris}]`,
      secret: pw,
      kept: 'env: [{name: DB_PASSWORD, value: [REDACTED]}, {name: MODEL, value: iris}]',
    };
  },
};

describe('secret rules', () => {
  it('each rule has a sample here', () => {
    expect(SECRET_RULES.map((r) => r.name).filter((n) => !RULE_SAMPLES[n])).toEqual([]);
  });

  it.each(SECRET_RULES.map((r) => [r.name, r] as const))(
    '%s removes its sample secret on its own and keeps what is around it',
    (name, rule) => {
      const { line, secret, kept } = RULE_SAMPLES[name]!(secretGenerator(name.length * 7919));
      const alone = rule.apply(line, { codeLine: false });
      expect(alone).not.toContain(secret);
      expect(alone).toContain(kept);
      expect(redactText(line)).toContain(kept);
    },
  );
});

describe('redactLines', () => {
  const g = secretGenerator(11);
  const body = [g.b64(64), g.b64(64), `${g.b64(10)}==`];

  it('masks the body lines of a private key block, not only the BEGIN line, and keeps one line per line', () => {
    const lines = [
      '+ cat key.pem',
      '-----BEGIN EC PRIVATE KEY-----',
      ...body.map((l) => `    ${l}`),
      '-----END EC PRIVATE KEY-----',
      'ERROR bad key',
    ];
    const out = redactLines(lines);
    expect(out).toEqual([
      '+ cat key.pem',
      '-----BEGIN EC PRIVATE KEY-----',
      '    [REDACTED:private-key]',
      '    [REDACTED:private-key]',
      '    [REDACTED:private-key]',
      '-----END EC PRIVATE KEY-----',
      'ERROR bad key',
    ]);
  });

  it('masks every body line after a log prefix (the short last one too) and keeps the prefix of the END line', () => {
    const at = (s: number) => `2023-10-05T09:24:3${s}.611Z`;
    const lines = [
      `${at(1)} -----BEGIN RSA PRIVATE KEY-----`,
      ...body.map((l, i) => `${at(i + 2)} ${l}`),
      `${at(6)} -----END RSA PRIVATE KEY-----`,
    ];
    expect(redactLines(lines)).toEqual([
      lines[0],
      ...body.map((_, i) => `${at(i + 2)} [REDACTED:private-key]`),
      lines[4],
    ]);
    const levels = [
      'ERROR  -----BEGIN OPENSSH PRIVATE KEY-----',
      ...body.map((l) => `ERROR  ${l}`),
      'ERROR  -----END OPENSSH PRIVATE KEY-----',
    ];
    expect(redactLines(levels)).toEqual([levels[0], ...body.map(() => 'ERROR  [REDACTED:private-key]'), levels[4]]);
  });

  it('still reads a block as a key when its body lines were masked before (text redacted once, quoted, redacted again)', () => {
    const at = '2023-10-05T09:24:38.611Z';
    const lines = [
      `${at} -----BEGIN PRIVATE KEY-----`,
      `${at} [REDACTED]`,
      `${at} ${body[2]}`,
      `${at} -----END PRIVATE KEY-----`,
    ];
    expect(redactLines(lines)).toEqual([lines[0], lines[1], `${at} [REDACTED:private-key]`, lines[3]]);
  });

  it('masks the body lines before an END line whose BEGIN was cut off (a log tail)', () => {
    const out = redactLines(['+ tail -c 200 /var/secrets/key.pem', body[0]!, body[2]!, '-----END PRIVATE KEY-----']);
    expect(out).toEqual([
      '+ tail -c 200 /var/secrets/key.pem',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '-----END PRIVATE KEY-----',
    ]);
  });

  it('ends a block cut short at the first line that is not base64, and redacts as usual from there', () => {
    const out = redactLines([
      '-----BEGIN RSA PRIVATE KEY-----',
      body[2]!,
      'ERROR: could not read the key, giving up',
      'password: changeme',
    ]);
    expect(out).toEqual([
      '-----BEGIN RSA PRIVATE KEY-----',
      '[REDACTED:private-key]',
      'ERROR: could not read the key, giving up',
      'password: [REDACTED]',
    ]);
  });

  it('reads a line after a traceback frame as code: identifiers are names, literals are values', () => {
    const pw = g.password();
    const frame = '  File "/app/db.py", line 12, in connect';
    expect(redactLines([frame, '    connect(password=db_password)'])).toEqual([
      frame,
      '    connect(password=db_password)',
    ]);
    expect(redactLines([frame, `    connect(password="${pw}")`])[1]).toBe('    connect(password="[REDACTED]")');
    expect(redactLine('connect password=db_password')).toBe('connect password=[REDACTED]');
  });
});

describe('redactText', () => {
  it('keeps the line breaks (\\n and \\r\\n) it was given', () => {
    const text = 'a\r\npassword=x1y2z3w4\nb\n';
    expect(redactText(text)).toBe('a\r\npassword=[REDACTED]\nb\n');
  });

  it('is what redact() was (the name existing callers use)', () => {
    expect(redact).toBe(redactText);
  });

  it('changes nothing the second time', () => {
    const g = secretGenerator(5);
    const text = `Authorization: Bearer ${g.b64url(40)}\nAKIA${g.upperDigits(16)} ${g.b64(40)}\npostgres://u:${g.password()}@db/x`;
    const once = redactText(text);
    expect(redactText(once)).toBe(once);
  });
});
