/**
 * `isvc-doctor serve [--config FILE] [--role all|web|worker|watcher|agent] [--cluster NAME]`: runs the Slack app and/or the
 * diagnosis workers and/or the unready-watcher until SIGINT/SIGTERM. A bad config stops the start with one line naming the key
 * (exit 2); a Slack token that auth.test refuses also stops it (exit 1).
 */
import { SERVE_ROLES as ROLES, type ServeRole } from '../app/roles.js';
import { startServe, type RunningServe } from '../app/serve.js';
import { SlackStartError } from '../bot/slack-start-error.js';
import { installProcessGuards } from '../bot/process-guards.js';
import { createLogger } from '../core/logger.js';
import { ConfigError, loadConfig } from '../config.js';
import { signatureCatalog } from '../signatures/load-signatures.js';
import { SignatureError } from '../signatures/signature-error.js';
import { errorMessage } from '../core/error-message.js';
import { usageOf } from './cli-commands.js';

const USAGE = usageOf('serve');

function parseArgs(argv: string[]): { config?: string; role: ServeRole; cluster?: string } | string {
  let config: string | undefined;
  let cluster: string | undefined;
  let role: ServeRole = 'all';
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--config' || flag === '-c') {
      config = value();
      if (!config) return '--config needs a file';
    } else if (flag === '--role') {
      const r = value();
      if (!r || !ROLES.includes(r as ServeRole)) return `--role must be one of ${ROLES.join(', ')}`;
      role = r as ServeRole;
    } else if (flag === '--cluster') {
      cluster = value();
      if (!cluster) return '--cluster needs a cluster name';
    } else if (flag === '-h' || flag === '--help') return 'help';
    else return `unknown argument "${arg}"`;
  }
  if (cluster !== undefined && role !== 'agent') return '--cluster goes with --role agent';
  return { ...(config ? { config } : {}), role, ...(cluster ? { cluster } : {}) };
}

export async function runServeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (typeof args === 'string') {
    process.stderr.write(`isvc-doctor serve: ${args}\n${USAGE}\n`);
    return 2;
  }
  let bot: RunningServe;
  let shutdownTimeoutMs = 30_000;
  try {
    const config = loadConfig({ file: args.config ?? null });
    // a bug in a callback is logged, not fatal to every request and job in the process
    installProcessGuards(createLogger({ level: config.logLevel }));
    shutdownTimeoutMs = config.shutdownTimeoutMs;
    // a team's signature files are checked before anything starts
    const signatures = signatureCatalog(config.diagnosis.signatureFiles);
    bot = await startServe({ config, role: args.role, signatures, ...(args.cluster ? { cluster: args.cluster } : {}) });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SignatureError) {
      process.stderr.write(`isvc-doctor: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SlackStartError) {
      process.stderr.write(`isvc-doctor: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  process.stdout.write(`listening on ${bot.url}\nmetrics on ${bot.metricsUrl}\n`);
  const running = bot;
  // SIGTERM / SIGINT: graceful shutdown (startServe's close: no new Slack requests, Lease released,
  // running jobs finish until SHUTDOWN_TIMEOUT_MS, then go back to the queue). A second signal stops at once.
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`isvc-doctor: ${signal} again, stopping now\n`);
        process.exit(1);
      }
      stopping = true;
      // whatever the shutdown waits for (a Redis that is gone), the process exits: the jobs' deadline plus a margin
      setTimeout(() => {
        process.stderr.write(`isvc-doctor: shutdown did not finish within ${shutdownTimeoutMs + 15_000} ms, exiting\n`);
        process.exit(1);
      }, shutdownTimeoutMs + 15_000).unref();
      // whatever still holds the event loop once everything is closed (a cancelled request in flight) gets 5 s
      const exitSoon = (code: number) => setTimeout(() => process.exit(code), 5000).unref();
      void running.close().then(
        () => {
          exitSoon(0);
          resolve(0);
        },
        (error: unknown) => {
          process.stderr.write(`isvc-doctor: shutdown: ${errorMessage(error)}\n`);
          exitSoon(1);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
