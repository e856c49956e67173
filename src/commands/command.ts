/**
 * A subcommand of `/isvc` (and of `@isvc-doctor` mentions, which run the same registry): its name,
 * its usage line (help and usage errors are generated from these), a parser from the split words
 * to its input, and what it does. A command answers the asker through `ctx.reply` (ephemeral) and
 * posts to the channel only through the flows it starts (a diagnosis, a rollout).
 */
import type { AppConfig } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { TargetRef } from '../core/target-ref.js';
import type { ClusterListing, ClusterRoutes } from '../clusters/cluster-routes.js';
import type { MuteStore } from '../incidents/mute-store.js';
import type { ClusterJobQueue } from '../queue/cluster-job-queue.js';
import type { CommandFailure } from '../queue/command-failure.js';
import type { RequestDeps } from '../queue/request-diagnosis.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import type { SplitArgs } from './split-args.js';

/** What only the asker sees; the surface's notifier renders it. */
export type CommandReply =
  | { kind: 'help'; usage: readonly string[] }
  | { kind: 'usage-error'; problem: string; usage: readonly string[] }
  | { kind: 'disabled'; feature: 'remediations' | 'incidents'; usage: readonly string[] }
  | { kind: 'muted'; key: string; durationMs: number | null }
  | { kind: 'unmuted'; key: string; wasMuted: boolean }
  | { kind: 'queue-unavailable' }
  | { kind: 'not-in-channel' }
  /** `command`: the subcommand that failed; `namespace`: what it was about when not one InferenceService (status). */
  | { kind: 'failed'; target: TargetRef | null; code: string; command?: string; namespace?: string }
  /** Multi-cluster: the cluster has no live agent (since: its last heartbeat, null: never). */
  | { kind: 'no-agent'; cluster: string; since: number | null }
  | { kind: 'clusters'; clusters: ClusterListing[] | null }
  /** The command is at work (reading the cluster, or queued for a worker that will): `text` as asked, without `/isvc`. */
  | { kind: 'working'; text: string }
  /** The command ended without its answer: why (an API fault or a code), what was tried, when to ask again. */
  | { kind: 'command-failed'; failure: CommandFailure };

export interface CommandDeps {
  config: Pick<AppConfig, 'namespaces'>;
  /** The diagnosis producer and the notifier of its messages. */
  diagnoses: RequestDeps;
  queue: ClusterJobQueue;
  /** Absent: remediations are off on this bot. */
  remediation?: RemediationDeps;
  /** Absent: automatic incidents are off on this bot. */
  mutes?: MuteStore;
  metrics: { commandReceived(subcommand: string, outcome: string): void };
  logger: Logger;
  /** The cluster these deps read (named when a command gets no answer from its API); absent: not named. */
  clusterName?: string;
  /** Multi-cluster web process: where each cluster's commands go (absent: one cluster, the deps above). */
  clusters?: ClusterRoutes;
}

export interface CommandContext {
  deps: CommandDeps;
  channel: string;
  user: string;
  /** Set when asked inside a thread: the answers go there. */
  threadTs?: string;
  /** Run by a button: the message that carries it (a rollout message shows the change it asked for). */
  clickedTs?: string;
  /** The Slack request that asked (carried into the jobs it queues). */
  requestId?: string;
  /** The asker was already told the command is at work (a command forwarded to a cluster's agent). */
  progressShown?: boolean;
  /** Every command's usage line, in registry order (for help). */
  usage: readonly string[];
  /** Answers only the asker. */
  reply(reply: CommandReply): Promise<unknown>;
}

/** A parse that did not work out: what was wrong, for a usage error. */
export interface Problem {
  problem: string;
}

export interface Command<I> {
  name: string;
  /** Other words that run it (`-h` for help). */
  aliases?: readonly string[];
  /** One line: the form in backticks, then what it does. */
  usage: string;
  parse(args: SplitArgs, config: CommandDeps['config']): I | Problem;
  /**
   * Multi-cluster: what of a cluster the command needs. `queue`: it adds jobs for the cluster's agent
   * (which must be live); `forward`: the agent runs the whole command (it reads the cluster);
   * `store`: it only uses the cluster's stores in Redis. Absent: it needs no cluster.
   */
  cluster?: 'queue' | 'forward' | 'store';
  /**
   * `own`: the command shows its own progress where everyone sees it (diagnose's root "Diagnosing…").
   * Absent: the runner tells the asker it is at work when it takes a moment or hands over to a job
   * (commands/command-progress.ts).
   */
  progress?: 'own';
  /** Runs after the ack; resolves to the outcome the metrics count ("queued", "joined", "ok", …). */
  run(input: I, ctx: CommandContext): Promise<string>;
}

export const isProblem = (value: unknown): value is Problem =>
  typeof value === 'object' && value !== null && 'problem' in value;

/** Declares a command, keeping its input type between parse and run. */
export function command<I>(c: Command<I>): Command<I> {
  return c;
}
