import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildConfig, ConfigError, loadConfig, namespaceAllowed } from '../../../src/config.js';
import { parseDuration } from '../../../src/core/duration.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterAll(removeTempDirs);

const env = { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: 'secret' };

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('applies defaults', () => {
    const c = buildConfig({}, env);
    expect(c.namespaces).toBeNull();
    expect(c.alerts).toEqual({ channel: null, unreadyAfterMs: 300_000, channels: {}, groupWindowMs: 120_000 });
    expect(c.queue.concurrency).toBe(4);
    expect(c.diagnosis).toEqual({
      links: [],
      knativeNamespace: 'knative-serving',
      maxMemoryBytes: 16 * 1024 ** 3,
      signatureFiles: [],
      namespaces: null,
    });
    expect(c.slack).toEqual({
      botToken: 'xoxb-test',
      signingSecret: 'secret',
      appToken: null,
      apiUrl: 'https://slack.com/api/',
      socketMode: false,
    });
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.port).toBe(3000);
    expect(c.metricsPort).toBe(9090);
    expect(c.logLevel).toBe('info');
    expect(c.remediation.auditMaxEntries).toBe(10_000);
  });

  it('takes the metrics port, the log level and the audit retention', () => {
    const c = buildConfig(
      { remediation: { auditMaxEntries: 500 } },
      { ...env, METRICS_PORT: '9100', LOG_LEVEL: 'debug' },
    );
    expect(c.metricsPort).toBe(9100);
    expect(c.logLevel).toBe('debug');
    expect(c.remediation.auditMaxEntries).toBe(500);
    expect(errorOf(() => buildConfig({}, { ...env, LOG_LEVEL: 'verbose' })).message).toBe(
      'env: LOG_LEVEL: expected one of debug, info, warn, error',
    );
    expect(errorOf(() => buildConfig({ remediation: { auditMaxEntries: 5 } }, env)).message).toBe(
      'config: remediation.auditMaxEntries: Number must be greater than or equal to 100',
    );
    // Slack's port never serves the metrics; in Socket Mode nothing listens on PORT
    expect(errorOf(() => buildConfig({}, { ...env, PORT: '9090' })).message).toMatch(
      /^env: METRICS_PORT: must differ from PORT \(9090\)/,
    );
    expect(buildConfig({}, { SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'xapp-1', PORT: '9090' }).metricsPort).toBe(9090);
  });

  it('takes the Kubernetes request limits (timeout, qps, burst) with client-go-style defaults', () => {
    expect(buildConfig({}, env).kubernetes).toEqual({ requestTimeoutMs: 10_000, qps: 50, burst: 100 });
    expect(buildConfig({ kubernetes: { requestTimeout: '3s', qps: 5, burst: 10 } }, env).kubernetes).toEqual({
      requestTimeoutMs: 3000,
      qps: 5,
      burst: 10,
    });
    expect(errorOf(() => buildConfig({ kubernetes: { requestTimeout: 'soon' } }, env)).message).toBe(
      'config: kubernetes.requestTimeout: expected a duration like 5m',
    );
    expect(errorOf(() => buildConfig({ kubernetes: { burst: 0 } }, env)).message).toBe(
      'config: kubernetes.burst: Number must be greater than or equal to 1',
    );
  });

  it("takes the read deadlines of Slack's requests, a few seconds by default", () => {
    expect(buildConfig({}, env).http).toEqual({ headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
    expect(buildConfig({ http: { headersTimeout: '2s', bodyTimeout: '3s' } }, env).http).toEqual({
      headersTimeoutMs: 2000,
      bodyTimeoutMs: 3000,
    });
    expect(errorOf(() => buildConfig({ http: { bodyTimeout: 'never' } }, env)).message).toBe(
      'config: http.bodyTimeout: expected a duration like 5m',
    );
  });

  it('reads the YAML file and the environment', () => {
    const dir = tempDir('isvc-config-');
    const file = path.join(dir, 'config.yaml');
    writeFileSync(
      file,
      [
        'approvers: [U0APPROVER]',
        'alerts:',
        '  channel: C0ALERTS',
        '  unreadyAfter: 90s',
        '  channels: {team-a: C0TEAMA}',
        'namespaces: [default, team-a]',
        'queue: {concurrency: 2}',
        'remediation: {maxMemory: 8Gi}',
        'diagnosis:',
        '  knativeNamespace: knative-system',
        '  links: [{name: Grafana, url: "https://grafana/d/x?ns={namespace}&isvc={name}"}]',
      ].join('\n'),
    );
    const c = loadConfig({
      file,
      env: { ...env, SLACK_API_URL: 'http://127.0.0.1:9/api', PORT: '0', REDIS_URL: 'redis://r:1' },
    });
    expect(c.approvers).toEqual(['U0APPROVER']);
    expect(c.alerts).toEqual({
      channel: 'C0ALERTS',
      unreadyAfterMs: 90_000,
      channels: { 'team-a': 'C0TEAMA' },
      groupWindowMs: 120_000,
    });
    expect(c.queue.concurrency).toBe(2);
    expect(c.diagnosis.links[0]!.name).toBe('Grafana');
    expect(c.diagnosis.knativeNamespace).toBe('knative-system');
    // the report's memory offer uses the same cap as the remediation
    expect(c.diagnosis.maxMemoryBytes).toBe(8 * 1024 ** 3);
    expect(c.remediation.maxMemoryBytes).toBe(8 * 1024 ** 3);
    expect(c.slack.apiUrl).toBe('http://127.0.0.1:9/api/');
    expect(c.port).toBe(0);
    expect(namespaceAllowed(c, 'team-a')).toBe(true);
    expect(namespaceAllowed(c, 'kube-system')).toBe(false);
  });

  it.each([
    [{ alerts: { unreadyAfter: 'soon' } }, 'config: alerts.unreadyAfter: expected a duration like 5m'],
    [{ queue: { concurrency: 0 } }, 'config: queue.concurrency: Number must be greater than or equal to 1'],
    [{ queue: { concurrency: 'many' } }, 'config: queue.concurrency: Expected number, received string'],
    [{ namespaces: ['Bad_NS'] }, 'config: namespaces.0: expected a namespace name (DNS-1123 label)'],
    [{ approver: ['U1'] }, 'config: (top level): unknown key(s) approver'],
    [
      { diagnosis: { links: [{ name: 'x', url: 'not a url' }] } },
      'config: diagnosis.links.0.url: expected a URL template',
    ],
  ])('names the bad key: %j', (raw, message) => {
    expect(errorOf(() => buildConfig(raw, env)).message).toBe(message);
  });

  it('requires the bot token, and the signing secret in HTTP mode only', () => {
    expect(errorOf(() => buildConfig({}, { SLACK_SIGNING_SECRET: 's' })).message).toBe(
      'env: SLACK_BOT_TOKEN: required',
    );
    expect(errorOf(() => buildConfig({}, { SLACK_BOT_TOKEN: 'x' })).message).toMatch(
      /^env: SLACK_SIGNING_SECRET: required in HTTP mode/,
    );
    expect(buildConfig({}, { SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'xapp-1' }).slack.socketMode).toBe(true);
    expect(errorOf(() => buildConfig({}, { ...env, PORT: 'eighty' })).message).toBe(
      'env: PORT: expected a port number',
    );
  });

  it('says which file and line has bad YAML, and never echoes secrets', () => {
    const dir = tempDir('isvc-config-');
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'approvers: [U1\nalerts: {');
    const e = errorOf(() => loadConfig({ file, env }));
    expect(e.message).toMatch(new RegExp(`^config: ${file.replace(/[/.]/g, '\\$&')}:\\d+: invalid YAML`));
    expect(e.message).not.toContain('\n');
    expect(errorOf(() => loadConfig({ file: path.join(dir, 'missing.yaml'), env })).message).toContain('ENOENT');
  });

  it('parses durations', () => {
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('5 minutes')).toBeNull();
  });
});
