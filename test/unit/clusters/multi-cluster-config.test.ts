/** Multi-cluster settings and the pure parts of routing: the clusters: config, --cluster, queue prefixes, Redis addresses, the cluster line. */
import { describe, expect, it } from '@jest/globals';
import { clusterNamedIn, withClusterName } from '../../../src/clusters/cluster-named-poster.js';
import { parseCommand } from '../../../src/commands/index.js';
import { withoutClusterFlag } from '../../../src/commands/split-args.js';
import { buildConfig, clusterForChannel, ConfigError } from '../../../src/config.js';
import { clusterQueuePrefix, isRedisCluster } from '../../../src/queue/queue-prefix.js';
import { describeRedis, parseRedisAddress } from '../../../src/queue/redis-connection.js';

const env = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
const clusters = { 'prod-eu': { channels: ['C0EU'], alerts: { channel: 'C0EUALERT' } }, dev: { channels: ['C0DEV'] } };

describe('clusters: config', () => {
  it('is absent by default: one cluster, as today', () => {
    const c = buildConfig({}, env);
    expect(c.clusters).toBeNull();
    expect(c.defaultCluster).toBeNull();
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('reads clusters, their channels and alert channels, and routes channels to them', () => {
    const c = buildConfig({ clusters, defaultCluster: 'dev' }, env);
    expect(c.clusters).toEqual({
      'prod-eu': { channels: ['C0EU'], alertsChannel: 'C0EUALERT' },
      dev: { channels: ['C0DEV'], alertsChannel: null },
    });
    expect(clusterForChannel(c, 'C0EU')).toBe('prod-eu');
    expect(clusterForChannel(c, 'C0OTHER')).toBe('dev');
  });

  it.each([
    [{ clusters, defaultCluster: 'nope' }, 'config: defaultCluster: "nope" is not one of clusters (prod-eu, dev)'],
    [{ clusters: { Bad_Name: {} } }, 'config: clusters.Bad_Name: expected a cluster name (DNS-1123 label)'],
    [
      { clusters: { a: { channels: ['C1'] }, b: { channels: ['C1'] } } },
      'config: clusters.b.channels: C1 is already the channel of cluster a',
    ],
    [{ clusters: {} }, 'config: clusters: expected at least one cluster, or omit the key for one cluster'],
    [{ clusters: { a: { channel: 'C1' } } }, 'config: clusters.a: unknown key(s) channel'],
    [
      { redis: { cluster: ['h1:1', 'h2:2'], sentinels: ['s:1'] } },
      'config: redis: give sentinels or cluster, not both',
    ],
    [{ redis: { cluster: ['nohost'] } }, 'config: redis.cluster.0: expected host:port'],
  ])('refuses %j with one line', (file, message) => {
    expect(() => buildConfig(file, env)).toThrow(new ConfigError(message));
  });

  it('builds the Redis address from redis.cluster / redis.sentinels and REDIS_USERNAME / REDIS_PASSWORD', () => {
    expect(buildConfig({ redis: { cluster: ['10.0.0.1:7000', '10.0.0.2:7000'] } }, env).redisUrl).toBe(
      'redis-cluster://10.0.0.1:7000,10.0.0.2:7000',
    );
    expect(
      buildConfig(
        { redis: { sentinels: ['s1:26379'], sentinelName: 'main', tls: true } },
        { ...env, REDIS_USERNAME: 'bot', REDIS_PASSWORD: 'p@ss' },
      ).redisUrl,
    ).toBe('rediss-sentinel://bot:p%40ss@s1:26379/main');
    expect(buildConfig({}, { ...env, REDIS_URL: 'rediss://redis:6380', REDIS_PASSWORD: 'pw' }).redisUrl).toBe(
      'rediss://:pw@redis:6380',
    );
    expect(buildConfig({}, { ...env, REDIS_URL: 'redis-sentinel://s1:26379,s2:26379/mymaster' }).redisUrl).toBe(
      'redis-sentinel://s1:26379,s2:26379/mymaster',
    );
    // the shipped Deployment puts REDIS_PASSWORD into REDIS_URL itself: a URL with credentials keeps them
    expect(
      buildConfig({}, { ...env, REDIS_URL: 'redis://isvc-doctor:pw@redis:6379', REDIS_PASSWORD: 'pw' }).redisUrl,
    ).toBe('redis://isvc-doctor:pw@redis:6379');
  });
});

describe('Redis addresses and queue prefixes', () => {
  it('parses sentinel and cluster addresses, and hides passwords in logs', () => {
    expect(parseRedisAddress('redis://127.0.0.1:6379')).toBeNull();
    expect(parseRedisAddress('rediss-sentinel://bot:p%40ss@s1:26379,[::1]:26380/main')).toEqual({
      mode: 'sentinel',
      tls: true,
      nodes: [
        { host: 's1', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      username: 'bot',
      password: 'p@ss',
      name: 'main',
    });
    expect(parseRedisAddress('redis-cluster://h1:7000,h2:7001')).toEqual({
      mode: 'cluster',
      tls: false,
      nodes: [
        { host: 'h1', port: 7000 },
        { host: 'h2', port: 7001 },
      ],
    });
    expect(describeRedis('rediss-sentinel://bot:secret@s1:26379/main')).toBe('rediss-sentinel://bot:***@s1:26379/main');
  });

  it("keeps the single-cluster prefix, hash-tags a cluster's and Redis Cluster's", () => {
    expect(clusterQueuePrefix('bull', null)).toBe('bull');
    expect(clusterQueuePrefix('bull', null, true)).toBe('{bull}');
    expect(clusterQueuePrefix('bull', 'prod-eu')).toBe('{bull-prod-eu}');
    expect(isRedisCluster('rediss-cluster://h:1')).toBe(true);
    expect(isRedisCluster('redis://h:1')).toBe(false);
  });
});

describe('--cluster', () => {
  it('is parsed next to -n, and dropped from the text an agent runs', () => {
    const p = parseCommand('diagnose iris -n team-a --cluster prod-eu', { namespaces: null });
    expect('problem' in p ? p : { cluster: p.cluster, input: p.input }).toEqual({
      cluster: 'prod-eu',
      input: { namespace: 'team-a', name: 'iris' },
    });
    expect(parseCommand('status —cluster=dev', { namespaces: null })).toMatchObject({ cluster: 'dev' });
    expect(parseCommand('status --cluster', { namespaces: null })).toMatchObject({
      problem: '--cluster needs a cluster name after it.',
    });
    expect(withoutClusterFlag('<@U0BOT> rollout iris --cluster prod-eu promote')).toBe('<@U0BOT> rollout iris promote');
    expect(withoutClusterFlag('rollout iris --cluster=dev')).toBe('rollout iris');
  });

  it('names the cluster in a message: the text starts with it and a context line ends the blocks', () => {
    const m = withClusterName(
      { text: 'Diagnosing default/iris', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x' } }] },
      'prod-eu',
    );
    expect(m.text).toBe('[prod-eu] Diagnosing default/iris');
    expect(m.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: ':globe_with_meridians: cluster *prod-eu*' }],
    });
    expect(withClusterName(m, 'prod-eu').text).toBe('[prod-eu] Diagnosing default/iris');
    // a button on it (Re-diagnose, Mute 1h, rollout) runs on the cluster it names
    expect(clusterNamedIn(m)).toBe('prod-eu');
    expect(clusterNamedIn({ blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: 'other' }] }] })).toBeNull();
  });
});
