/**
 * Prometheus metrics of the bot (`GET /metrics`), on a registry of its own per process: commands,
 * diagnoses by outcome and root cause, findings by code, diagnosis durations, the job queue's depth
 * by state and the age of its oldest waiting job (read from Redis at scrape time, with a deadline),
 * remediations applied by action and outcome, incident jobs by kind and outcome, Slack Web API errors
 * by method and error code, whether this process holds the watcher's Lease, and the build.
 * The process and Node.js metrics keep their standard names (`process_*`, `nodejs_*`) so stock
 * dashboards work; the failure series the alerts select start at 0, so the first failure counts.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { packageVersion } from '../core/package-version.js';
import type { Report } from '../findings/types.js';
import { ACTIONS } from '../remediation/actions/index.js';
import type { DiagnosisOutcome } from '../queue/jobs/diagnose-job.js';
import type { SlackPoster } from '../slack/slack-poster.js';

/** What the queue gauges read at scrape time. */
export interface QueueProbe {
  counts(): Promise<Record<string, number>>;
  /** Enqueue time (epoch ms) of the oldest job waiting for a worker; null when none waits. */
  oldestWaitingAt(): Promise<number | null>;
}

export interface BotMetrics {
  registry: Registry;
  commandReceived(subcommand: string, outcome: string): void;
  diagnosisDone(outcome: DiagnosisOutcome, report: Report | null, seconds: number): void;
  remediationDone(action: string, outcome: string): void;
  slackError(method: string, error: string): void;
  /** An incident job (open / recover / refresh) finished: done or failed. */
  incidentJobDone(kind: string, outcome: 'done' | 'failed'): void;
  /** Starts reading queue depth and age at each scrape. */
  observeQueue(probe: QueueProbe): void;
  /** Starts reading, at each scrape, whether this process leads the unready-watcher (0 where no watcher runs). */
  observeWatcher(watcher: { isLeader(): boolean }): void;
}

const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;
const INCIDENT_JOB_KINDS = ['open', 'recover', 'refresh'] as const;
const SCRAPE_DEADLINE_MS = 1000;
/**
 * prom-client's default gauges with a counter's `_total` suffix, which `promtool check metrics`
 * rejects (a gauge named like a counter breaks rate() and recording rules); the count of handles,
 * requests and resources is of little use to an operator, so they are left out.
 */
const SUFFIXED_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

function deadline<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), SCRAPE_DEADLINE_MS))),
  ]).finally(() => clearTimeout(timer));
}

/** A SlackPoster that counts the Slack errors it sees (rate limits included) by method. */
export function countSlackErrors(poster: SlackPoster, metrics: Pick<BotMetrics, 'slackError'>): SlackPoster {
  const counted = async <T>(method: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      const e = error as { slackError?: unknown; code?: unknown };
      metrics.slackError(
        method,
        typeof e.slackError === 'string' ? e.slackError : typeof e.code === 'string' ? e.code : 'unknown',
      );
      throw error;
    }
  };
  return {
    post: (channel, message, threadTs, options) =>
      counted('chat.postMessage', () => poster.post(channel, message, threadTs, options)),
    update: (channel, ts, message) => counted('chat.update', () => poster.update(channel, ts, message)),
    ephemeral: (channel, user, message, threadTs) =>
      counted('chat.postEphemeral', () => poster.ephemeral(channel, user, message, threadTs)),
    ...(poster.delete
      ? { delete: (channel: string, ts: string) => counted('chat.delete', () => poster.delete!(channel, ts)) }
      : {}),
  };
}

export function createBotMetrics(options: { defaultMetrics?: boolean } = {}): BotMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    for (const name of SUFFIXED_GAUGES) registry.removeSingleMetric(name);
  }
  new Gauge({
    name: 'isvc_doctor_build_info',
    help: 'Always 1: the version of isvc-doctor and of Node.js this process runs',
    labelNames: ['version', 'nodejs_version'],
    registers: [registry],
  }).set({ version: packageVersion(), nodejs_version: process.versions.node }, 1);
  let watcher: { isLeader(): boolean } | null = null;
  new Gauge({
    name: 'isvc_doctor_watcher_leader',
    help: '1 while this process holds the unready-watcher Lease; 0 otherwise (or where no watcher runs)',
    registers: [registry],
    collect() {
      this.set(watcher?.isLeader() ? 1 : 0);
    },
  });
  const commands = new Counter({
    name: 'isvc_doctor_commands_total',
    help: 'Slack commands received',
    labelNames: ['subcommand', 'outcome'],
    registers: [registry],
  });
  const diagnoses = new Counter({
    name: 'isvc_doctor_diagnoses_total',
    help: 'Diagnosis jobs finished',
    labelNames: ['outcome', 'root_cause'],
    registers: [registry],
  });
  const findings = new Counter({
    name: 'isvc_doctor_findings_total',
    help: 'Findings reported, by code',
    labelNames: ['code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'isvc_doctor_diagnosis_duration_seconds',
    help: 'Time from a job starting to its answers being posted',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const remediations = new Counter({
    name: 'isvc_doctor_remediations_total',
    help: 'Remediation jobs finished, by action and outcome (verified, failed, superseded, …)',
    labelNames: ['action', 'outcome'],
    registers: [registry],
  });
  const slackErrors = new Counter({
    name: 'isvc_doctor_slack_api_errors_total',
    help: 'Slack Web API calls that failed, by method and Slack error',
    labelNames: ['method', 'error'],
    registers: [registry],
  });
  const incidentJobs = new Counter({
    name: 'isvc_doctor_incident_jobs_total',
    help: 'Incident jobs finished, by kind (open, recover, refresh) and outcome',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  initialiseFailures(diagnoses, remediations, incidentJobs);
  let probe: QueueProbe | null = null;
  new Gauge({
    name: 'isvc_doctor_queue_jobs',
    help: 'Jobs in the cluster job queue by state (read from Redis at scrape time)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!probe) return;
      const counts = await deadline(probe.counts()).catch(() => null);
      if (counts) for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'isvc_doctor_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting for a worker (0: none waits)',
    registers: [registry],
    async collect() {
      if (!probe) return;
      const at = await deadline(probe.oldestWaitingAt()).catch(() => undefined);
      if (at !== undefined) this.set(at === null ? 0 : Math.max(0, (Date.now() - at) / 1000));
    },
  });
  return {
    registry,
    observeQueue: (p) => {
      probe = p;
    },
    observeWatcher: (w) => {
      watcher = w;
    },
    remediationDone: (action, outcome) => remediations.inc({ action, outcome }),
    slackError: (method, error) => slackErrors.inc({ method, error }),
    incidentJobDone: (kind, outcome) => incidentJobs.inc({ kind, outcome }),
    commandReceived: (subcommand, outcome) => commands.inc({ subcommand, outcome }),
    diagnosisDone: (outcome, report, seconds) => {
      diagnoses.inc({
        outcome,
        root_cause: report?.rootCause ?? (outcome === 'cluster-unreachable' ? 'CLUSTER_UNREACHABLE' : 'none'),
      });
      for (const f of report?.findings ?? []) findings.inc({ code: f.code });
      duration.observe(seconds);
    },
  };
}

/**
 * The failure series the alerts select, at 0 before anything happened: a counter that first appears
 * at 1 has no earlier sample, so increase() and rate() would miss its first failure.
 */
function initialiseFailures(
  diagnoses: Counter<'outcome' | 'root_cause'>,
  remediations: Counter<'action' | 'outcome'>,
  incidentJobs: Counter<'kind' | 'outcome'>,
): void {
  diagnoses.inc({ outcome: 'failed', root_cause: 'none' }, 0);
  diagnoses.inc({ outcome: 'cluster-unreachable', root_cause: 'CLUSTER_UNREACHABLE' }, 0);
  for (const action of Object.keys(ACTIONS))
    for (const outcome of ['failed', 'error']) remediations.inc({ action, outcome }, 0);
  for (const kind of INCIDENT_JOB_KINDS) incidentJobs.inc({ kind, outcome: 'failed' }, 0);
}
