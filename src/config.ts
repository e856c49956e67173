/**
 * The bot's configuration: the YAML file (`serve --config FILE`) plus the environment, validated
 * with zod at start. A bad value stops the start with one line naming the key, e.g.
 * `config: alerts.unreadyAfter: expected a duration like 5m` (ConfigError, code CONFIG_INVALID).
 * Secrets (tokens, signing secret) come from the environment only and are never logged or posted.
 * This is the only module that reads the environment; it imports nothing from the domain.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { cliCacheDirOf } from './core/cli-cache-dir.js';
import { CodedError } from './core/coded-error.js';
import { parseDuration } from './core/duration.js';
import { errorMessage } from './core/error-message.js';
import { DEFAULT_MAX_MEMORY, parseMemory } from './core/memory-quantity.js';
import { LOG_LEVELS, type LogLevel } from './core/logger.js';
import { DNS1123_LABEL } from './core/names.js';

export class ConfigError extends CodedError<'CONFIG_INVALID'> {
  constructor(message: string) {
    super('CONFIG_INVALID', message);
  }
}

/** A link template, e.g. {name: "Grafana", url: "https://grafana/d/kserve?var-namespace={namespace}&var-isvc={name}"}. */
export interface LinkTemplate {
  name: string;
  url: string;
}

/** What a diagnosis may be configured with (the `diagnosis:` key of the config file, and `remediation.maxMemory`). */
export interface DiagnosisConfig {
  /** Metrics dashboards and traces for an InferenceService; {namespace}, {name}, {revision}, {component} are filled in. */
  links: LinkTemplate[];
  /** Namespace of the Knative Serving control plane. */
  knativeNamespace: string;
  /** Cap of an offered memory raise, bytes (the bot's `remediation.maxMemory`, so the report offers what a proposal applies). */
  maxMemoryBytes: number;
  /** A team's signature files (absolute paths), consulted before the shipped ones; loaded and checked at start. */
  signatureFiles: string[];
  /** The namespaces the bot may read (null: every one): a name followed out of the default namespace goes only there. */
  namespaces: string[] | null;
}

export const DEFAULT_DIAGNOSIS_CONFIG: DiagnosisConfig = {
  links: [],
  knativeNamespace: 'knative-serving',
  maxMemoryBytes: DEFAULT_MAX_MEMORY,
  signatureFiles: [],
  namespaces: null,
};
const slackId = z.string().regex(/^[A-Z0-9][A-Z0-9_-]*$/i, 'expected a Slack id like C0123ABCD');
const duration = z
  .union([z.string(), z.number()], { errorMap: () => ({ message: 'expected a duration like 5m' }) })
  .transform((v, ctx) => {
    const ms = typeof v === 'number' ? v * 1000 : parseDuration(v);
    if (ms === null || ms <= 0) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected a duration like 5m' });
      return z.NEVER;
    }
    return ms;
  });
const namespace = z.string().regex(DNS1123_LABEL, 'expected a namespace name (DNS-1123 label)').max(63);
const clusterName = z.string().regex(DNS1123_LABEL, 'expected a cluster name (DNS-1123 label)').max(40);
const hostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, 'expected host:port');

export const fileConfigSchema = z
  .object({
    approvers: z.array(slackId).default([]),
    alerts: z
      .object({
        channel: slackId.optional(),
        unreadyAfter: duration.default('5m'),
        channels: z.record(namespace, slackId).default({}),
        groupWindow: duration.default('2m'),
      })
      .strict()
      .default({}),
    leaderElection: z
      .object({
        namespace: namespace.optional(),
        leaseName: z.string().regex(DNS1123_LABEL, 'expected a DNS-1123 name').max(63).default('isvc-doctor-watcher'),
        leaseDuration: duration.default('15s'),
      })
      .strict()
      .default({}),
    namespaces: z.array(namespace).nonempty('expected at least one namespace, or omit the key for all').optional(),
    queue: z
      .object({
        concurrency: z.number().int('expected an integer').min(1).max(64).default(4),
        attempts: z.number().int('expected an integer').min(1).max(20).default(4),
        backoffMs: z.number().int('expected an integer').min(10).default(2000),
        holdMs: z.number().int('expected an integer').min(0).max(60_000).default(8000),
        name: z
          .string()
          .regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, - or _')
          .default('isvc-doctor-diagnosis'),
      })
      .strict()
      .default({}),
    remediation: z
      .object({
        /** Per-namespace approvers (user or user-group ids); a namespace listed here uses only these. */
        approvers: z.record(namespace, z.array(slackId)).default({}),
        twoPersonRule: z.boolean().default(false),
        proposalTtl: duration.default('30m'),
        maxMemory: z
          .string()
          .regex(/^\d+(\.\d+)?([KMGT]i?|k)?$/, 'expected a memory quantity like 16Gi')
          .default('16Gi'),
        verifyTimeout: duration.default('3m'),
        verifyPoll: duration.default('5s'),
        /** The remediation audit stream keeps about this many entries (XADD MAXLEN ~): the oldest go first. */
        auditMaxEntries: z.number().int('expected an integer').min(100).max(10_000_000).default(10_000),
      })
      .strict()
      .default({}),
    /** Multi-cluster: one web process talks to Slack, one agent per cluster (docs/multi-cluster.md). */
    clusters: z
      .record(
        clusterName,
        z
          .object({
            /** Channels whose commands go to this cluster unless --cluster says otherwise. */
            channels: z.array(slackId).default([]),
            alerts: z.object({ channel: slackId.optional() }).strict().default({}),
          })
          .strict(),
      )
      .optional(),
    defaultCluster: clusterName.optional(),
    /** Agents heartbeat this often; one silent for staleAfter is taken for gone. */
    agents: z
      .object({ heartbeat: duration.default('5s'), staleAfter: duration.default('20s') })
      .strict()
      .default({}),
    /** Redis Sentinel or Redis Cluster instead of REDIS_URL's one server (credentials: REDIS_USERNAME, REDIS_PASSWORD). */
    redis: z
      .object({
        sentinels: z.array(hostPort).nonempty('expected at least one sentinel host:port').optional(),
        sentinelName: z.string().min(1).default('mymaster'),
        cluster: z.array(hostPort).nonempty('expected at least one node host:port').optional(),
        tls: z.boolean().default(false),
      })
      .strict()
      .default({}),
    /** Every request to the Kubernetes API: a timeout each, and a token bucket shared by the process (client-go's QPS/burst). */
    kubernetes: z
      .object({
        requestTimeout: duration.default('10s'),
        qps: z.number({ invalid_type_error: 'expected requests a second' }).min(0).max(100_000).default(50),
        burst: z.number().int('expected an integer').min(1).max(100_000).default(100),
      })
      .strict()
      .default({}),
    diagnosis: z
      .object({
        links: z
          .array(z.object({ name: z.string().min(1), url: z.string().url('expected a URL template') }).strict())
          .default([]),
        knativeNamespace: namespace.default(DEFAULT_DIAGNOSIS_CONFIG.knativeNamespace),
        /** A team's signature files (relative to the config file), consulted before the shipped ones. */
        signatures: z.array(z.string().min(1, 'expected a file path')).default([]),
        /** A diagnosis job that runs longer is stopped and its thread told so (a hung API server never means silence). */
        jobTimeout: duration.default('90s'),
      })
      .strict()
      .default({}),
    /** Slack's requests (HTTP mode, PORT): a request's headers, then its body, arrive within these or its connection is closed. */
    http: z
      .object({ headersTimeout: duration.default('5s'), bodyTimeout: duration.default('5s') })
      .strict()
      .default({}),
    /** MCP over HTTP (MCP_PORT): where propose_fix posts when not the service's alerts channel. */
    mcp: z.object({ channel: slackId.optional() }).strict().default({}),
  })
  .strict();

const port = z.coerce.number({ invalid_type_error: 'expected a port number' }).int().min(0).max(65535);
export const envSchema = z.object({
  SLACK_BOT_TOKEN: z.string().min(1, 'required'),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_APP_TOKEN: z.string().min(1).optional(),
  SLACK_API_URL: z.string().url('expected a URL like https://slack.com/api/').default('https://slack.com/api/'),
  REDIS_URL: z
    .string()
    .regex(
      /^rediss?(-sentinel|-cluster)?:\/\//,
      'expected a URL like redis://127.0.0.1:6379 (or rediss://, redis-sentinel://HOST:PORT[,HOST:PORT]/MASTER, redis-cluster://HOST:PORT[,HOST:PORT])',
    )
    .default('redis://127.0.0.1:6379'),
  /** Redis ACL user and password (kept out of REDIS_URL so the URL can sit in a ConfigMap). */
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
  PORT: port.default(3000),
  /** /metrics, /healthz and /readyz: a port of their own, never the one Slack's requests reach. */
  METRICS_PORT: port.default(9090),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { errorMap: () => ({ message: `expected one of ${LOG_LEVELS.join(', ')}` }) })
    .default('info'),
  KUBECONFIG: z.string().min(1).optional(),
  /** How long running jobs get to finish on SIGTERM. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ invalid_type_error: 'expected milliseconds' }).int().min(0).default(30_000),
  /** The pod's namespace (the downward API), where the watcher's Lease goes by default. */
  POD_NAMESPACE: z.string().min(1).optional(),
  /** MCP's Streamable HTTP endpoint for shared agents (unset: off). */
  MCP_PORT: port.optional(),
  /** Its bearer tokens (from a Secret): NAME=TOKEN entries, separated by commas or new lines. */
  MCP_TOKENS: z.string().min(1).optional(),
  /** Requests per minute each token may make. */
  MCP_RATE_LIMIT: z.coerce.number({ invalid_type_error: 'expected requests per minute' }).int().min(1).default(60),
});

export interface AppConfig {
  approvers: string[];
  alerts: { channel: string | null; unreadyAfterMs: number; channels: Record<string, string>; groupWindowMs: number };
  /** The watcher's Lease; namespace null: the pod's own namespace (or the kubeconfig context's). */
  leaderElection: { namespace: string | null; leaseName: string; leaseDurationMs: number };
  /** Who approves where, proposal expiry, the memory cap, verification bounds. */
  remediation: {
    namespaceApprovers: Record<string, string[]>;
    twoPersonRule: boolean;
    proposalTtlMs: number;
    maxMemoryBytes: number;
    verifyTimeoutMs: number;
    verifyPollMs: number;
    auditMaxEntries: number;
  };
  /** null: every namespace. */
  namespaces: string[] | null;
  /** jobTimeoutMs: the file's `diagnosis.jobTimeout`, the deadline of one diagnosis or status job. */
  /** holdMs: how long a request waits for Redis to come back before it is told "queue unavailable". */
  queue: {
    name: string;
    concurrency: number;
    attempts: number;
    backoffMs: number;
    holdMs: number;
    jobTimeoutMs: number;
  };
  diagnosis: DiagnosisConfig;
  /** Limits of every Kubernetes API request (src/kube/request-limits.ts); qps 0: no limit. */
  kubernetes: { requestTimeoutMs: number; qps: number; burst: number };
  slack: {
    botToken: string;
    signingSecret: string | null;
    appToken: string | null;
    apiUrl: string;
    socketMode: boolean;
  };
  /**
   * Where Redis is: redis:// or rediss:// (one server), redis-sentinel:// or redis-cluster:// (rediss-… with TLS),
   * credentials from REDIS_USERNAME / REDIS_PASSWORD folded in; src/queue/redis-connection.ts reads it.
   */
  redisUrl: string;
  /** null: one cluster (today's install). Else one agent per cluster, one web process (docs/multi-cluster.md). */
  clusters: Record<string, ClusterConfig> | null;
  /** Where a command goes when neither --cluster nor its channel says. */
  defaultCluster: string | null;
  agents: { heartbeatMs: number; staleAfterMs: number };
  /** Slack's requests (HTTP mode). */
  port: number;
  /** Their read deadlines (src/bot/slack-receiver.ts). */
  http: { headersTimeoutMs: number; bodyTimeoutMs: number };
  /** /metrics, /healthz, /readyz. */
  metricsPort: number;
  logLevel: LogLevel;
  kubeconfig: string | null;
  shutdownTimeoutMs: number;
  /** The pod's own namespace, when it runs in a cluster (POD_NAMESPACE or the service account's). */
  podNamespace: string | null;
  /** MCP over Streamable HTTP (docs/mcp.md); port null: off. */
  mcp: {
    port: number | null;
    tokens: Array<{ name: string; token: string }>;
    ratePerMinute: number;
    channel: string | null;
  };
}

export interface ClusterConfig {
  channels: string[];
  alertsChannel: string | null;
}

/** One line naming the first bad key. */
function describeIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const key = issue.path.join('.') || '(top level)';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') message = `unknown key(s) ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.received === 'undefined') message = 'required';
  return `${prefix}: ${key}: ${message}`;
}

/** Validates an already-parsed config object and an environment; signature files are read relative to `baseDir`. */
export function buildConfig(raw: unknown, env: NodeJS.ProcessEnv, baseDir = process.cwd()): AppConfig {
  const file = fileConfigSchema.safeParse(raw ?? {});
  if (!file.success) throw new ConfigError(describeIssue(file.error, 'config'));
  const e = envSchema.safeParse(env);
  if (!e.success) throw new ConfigError(describeIssue(e.error, 'env'));
  const f = file.data;
  const socketMode = Boolean(e.data.SLACK_APP_TOKEN);
  // a multi-cluster agent takes no Slack requests: only the web process needs the signing secret (src/app/serve.ts checks it there)
  if (!socketMode && !e.data.SLACK_SIGNING_SECRET && !f.clusters) {
    throw new ConfigError('env: SLACK_SIGNING_SECRET: required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)');
  }
  if (!socketMode && e.data.METRICS_PORT !== 0 && e.data.METRICS_PORT === e.data.PORT) {
    throw new ConfigError(
      `env: METRICS_PORT: must differ from PORT (${e.data.PORT}): metrics and health are served apart from Slack's requests`,
    );
  }
  const clusters = f.clusters ? clustersOf(f.clusters) : null;
  if (f.defaultCluster && !clusters?.[f.defaultCluster]) {
    throw new ConfigError(
      `config: defaultCluster: "${f.defaultCluster}" is not one of clusters (${clusters ? Object.keys(clusters).join(', ') : 'none configured'})`,
    );
  }
  const apiUrl = e.data.SLACK_API_URL.endsWith('/') ? e.data.SLACK_API_URL : `${e.data.SLACK_API_URL}/`;
  return {
    approvers: f.approvers,
    alerts: {
      channel: f.alerts.channel ?? null,
      unreadyAfterMs: f.alerts.unreadyAfter,
      channels: f.alerts.channels,
      groupWindowMs: f.alerts.groupWindow,
    },
    leaderElection: {
      namespace: f.leaderElection.namespace ?? null,
      leaseName: f.leaderElection.leaseName,
      leaseDurationMs: f.leaderElection.leaseDuration,
    },
    remediation: {
      namespaceApprovers: f.remediation.approvers,
      twoPersonRule: f.remediation.twoPersonRule,
      proposalTtlMs: f.remediation.proposalTtl,
      maxMemoryBytes: parseMemory(f.remediation.maxMemory) ?? DEFAULT_MAX_MEMORY,
      verifyTimeoutMs: f.remediation.verifyTimeout,
      verifyPollMs: f.remediation.verifyPoll,
      auditMaxEntries: f.remediation.auditMaxEntries,
    },
    namespaces: f.namespaces ?? null,
    queue: { ...f.queue, jobTimeoutMs: f.diagnosis.jobTimeout },
    diagnosis: {
      links: f.diagnosis.links,
      knativeNamespace: f.diagnosis.knativeNamespace,
      maxMemoryBytes: parseMemory(f.remediation.maxMemory) ?? DEFAULT_DIAGNOSIS_CONFIG.maxMemoryBytes,
      signatureFiles: f.diagnosis.signatures.map((s) => path.resolve(baseDir, s)),
      namespaces: f.namespaces ?? null,
    },
    kubernetes: { requestTimeoutMs: f.kubernetes.requestTimeout, qps: f.kubernetes.qps, burst: f.kubernetes.burst },
    slack: {
      botToken: e.data.SLACK_BOT_TOKEN,
      signingSecret: e.data.SLACK_SIGNING_SECRET ?? null,
      appToken: e.data.SLACK_APP_TOKEN ?? null,
      apiUrl,
      socketMode,
    },
    redisUrl: redisUrlOf(f.redis, e.data),
    clusters,
    defaultCluster:
      f.defaultCluster ?? (clusters && Object.keys(clusters).length === 1 ? Object.keys(clusters)[0]! : null),
    agents: { heartbeatMs: f.agents.heartbeat, staleAfterMs: f.agents.staleAfter },
    port: e.data.PORT,
    http: { headersTimeoutMs: f.http.headersTimeout, bodyTimeoutMs: f.http.bodyTimeout },
    metricsPort: e.data.METRICS_PORT,
    logLevel: e.data.LOG_LEVEL,
    kubeconfig: e.data.KUBECONFIG ?? null,
    shutdownTimeoutMs: e.data.SHUTDOWN_TIMEOUT_MS,
    podNamespace: e.data.POD_NAMESPACE ?? null,
    mcp: {
      port: e.data.MCP_PORT ?? null,
      tokens: e.data.MCP_PORT === undefined ? [] : mcpTokensOf(e.data.MCP_TOKENS),
      ratePerMinute: e.data.MCP_RATE_LIMIT,
      channel: f.mcp.channel ?? null,
    },
  };
}

const MIN_TOKEN_CHARS = 24;

/** MCP_TOKENS: `NAME=TOKEN` entries (a bare TOKEN is named token-N); at least one, each long enough to guess never. */
function mcpTokensOf(raw: string | undefined): Array<{ name: string; token: string }> {
  const entries = (raw ?? '')
    .split(/[,\n]/)
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new ConfigError('env: MCP_TOKENS: required with MCP_PORT (NAME=TOKEN, from a Secret; docs/mcp.md)');
  return entries.map((entry, i) => {
    const at = entry.indexOf('=');
    const name = at > 0 ? entry.slice(0, at) : `token-${i + 1}`;
    const token = at > 0 ? entry.slice(at + 1) : entry;
    if (!DNS1123_LABEL.test(name))
      throw new ConfigError(
        `env: MCP_TOKENS: entry ${i + 1}: the name "${name.slice(0, 40)}" must be a DNS-1123 label`,
      );
    if (token.length < MIN_TOKEN_CHARS)
      throw new ConfigError(
        `env: MCP_TOKENS: entry ${i + 1} (${name}): a token has at least ${MIN_TOKEN_CHARS} characters`,
      );
    return { name, token };
  });
}

function clustersOf(
  raw: Record<string, { channels: string[]; alerts: { channel?: string | undefined } }>,
): Record<string, ClusterConfig> {
  const names = Object.keys(raw);
  if (names.length === 0)
    throw new ConfigError('config: clusters: expected at least one cluster, or omit the key for one cluster');
  const owner = new Map<string, string>();
  const out: Record<string, ClusterConfig> = {};
  for (const name of names) {
    const c = raw[name]!;
    for (const ch of c.channels) {
      const other = owner.get(ch);
      if (other)
        throw new ConfigError(`config: clusters.${name}.channels: ${ch} is already the channel of cluster ${other}`);
      owner.set(ch, name);
    }
    out[name] = { channels: c.channels, alertsChannel: c.alerts.channel ?? null };
  }
  return out;
}

type RedisFileConfig = {
  sentinels?: string[] | undefined;
  sentinelName: string;
  cluster?: string[] | undefined;
  tls: boolean;
};

/** The one Redis address string: REDIS_URL, or the config's sentinels / cluster nodes; REDIS_USERNAME / REDIS_PASSWORD folded in. */
function redisUrlOf(
  redis: RedisFileConfig,
  env: { REDIS_URL: string; REDIS_USERNAME?: string | undefined; REDIS_PASSWORD?: string | undefined },
): string {
  if (redis.sentinels && redis.cluster) throw new ConfigError('config: redis: give sentinels or cluster, not both');
  const auth =
    env.REDIS_PASSWORD || env.REDIS_USERNAME
      ? `${encodeURIComponent(env.REDIS_USERNAME ?? '')}:${encodeURIComponent(env.REDIS_PASSWORD ?? '')}@`
      : '';
  const s = redis.tls ? 's' : '';
  if (redis.cluster) return `redis${s}-cluster://${auth}${redis.cluster.join(',')}`;
  if (redis.sentinels)
    return `redis${s}-sentinel://${auth}${redis.sentinels.join(',')}/${encodeURIComponent(redis.sentinelName)}`;
  // a URL that carries its own credentials keeps them (the shipped Deployment puts REDIS_PASSWORD into REDIS_URL)
  if (!auth || /^[a-z-]+:\/\/[^/]*@/.test(env.REDIS_URL)) return env.REDIS_URL;
  const m = /^([a-z-]+:\/\/)(?:[^@/]*@)?(.*)$/.exec(env.REDIS_URL)!;
  return `${m[1]}${auth}${m[2]}`;
}

/** The cluster a channel's commands go to by default: the one listing the channel, else defaultCluster. */
export function clusterForChannel(
  config: Pick<AppConfig, 'clusters' | 'defaultCluster'>,
  channel: string,
): string | null {
  for (const [name, c] of Object.entries(config.clusters ?? {})) if (c.channels.includes(channel)) return name;
  return config.defaultCluster;
}

/** Reads the YAML file (when given) and the environment; throws ConfigError with a one-line message. */
export function loadConfig(options: { file?: string | null; env?: NodeJS.ProcessEnv } = {}): AppConfig {
  let raw: unknown = {};
  if (options.file) {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `config: cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    try {
      raw = parseYaml(text);
    } catch (error) {
      const line = error instanceof YAMLParseError ? error.linePos?.[0]?.line : undefined;
      const reason = errorMessage(error);
      throw new ConfigError(`config: ${options.file}${line ? `:${line}` : ''}: invalid YAML: ${reason}`);
    }
  }
  const config = buildConfig(
    raw,
    options.env ?? process.env,
    options.file ? path.dirname(path.resolve(options.file)) : process.cwd(),
  );
  return { ...config, podNamespace: serviceAccountNamespace() ?? config.podNamespace };
}

/** The namespace of the pod this runs in, from its service account, when in a cluster. */
function serviceAccountNamespace(): string | null {
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Where the CLI keeps its caches: core/cli-cache-dir.ts. */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  return cliCacheDirOf(env);
}

/**
 * How long shell completion waits for a cluster's answer (ISVC_DOCTOR_COMPLETION_TIMEOUT_MS, default
 * 3000): a tab that hangs is worse than no candidates. Tests on a loaded machine set it higher.
 */
export function completionTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.ISVC_DOCTOR_COMPLETION_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : 3000;
}

/** Whether the CLI colours its text output: on a terminal, unless NO_COLOR is set. */
export function colorWanted(isTTY: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return isTTY && !env.NO_COLOR;
}

/** Whether the bot may read / watch a namespace. */
export function namespaceAllowed(config: Pick<AppConfig, 'namespaces'>, ns: string): boolean {
  return config.namespaces === null || config.namespaces.includes(ns);
}

/** Where automatic posts for a namespace go; null: nowhere. */
export function alertsChannelFor(config: Pick<AppConfig, 'alerts'>, namespace: string): string | null {
  return config.alerts.channels[namespace] ?? config.alerts.channel;
}

export function alertsConfigured(config: Pick<AppConfig, 'alerts'>): boolean {
  return config.alerts.channel !== null || Object.keys(config.alerts.channels).length > 0;
}
