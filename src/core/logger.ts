/**
 * The bot's logger: one JSON object per line on stderr (`time`, `level`, `msg`, then fields), never
 * a token (callers pass messages, not configs). A request id follows a Slack request from the
 * moment it arrives (a Bolt middleware opens a request context) through everything logged while
 * handling it, into the jobs it queues (`requestId` in the job data) and the worker's lines about
 * them, so `grep <requestId>` shows a command, its job and the thread it answered.
 * Methods are plain closures: passing `logger.warn` around unbound is fine.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const requests = new AsyncLocalStorage<{ requestId: string }>();

/** A short random id, e.g. "r-3f9c2a7b1d04". */
export function newRequestId(): string {
  return `r-${randomBytes(6).toString('hex')}`;
}

/** Runs `fn` with a request id that every log line and queued job inside it carries. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requests.run({ requestId }, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}

/** The levels of `LOG_LEVEL`, least severe first: a logger writes its level and those after it. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level?: LogLevel;
  quiet?: boolean;
  write?: (line: string) => void;
  /** Applied to each record before it is written: `serve` passes the redaction engine (logs/redactDeep), so no log line carries a secret from the cluster. */
  redact?: (record: LogFields) => LogFields;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.write ?? ((line: string) => void process.stderr.write(line));
  const least = LOG_LEVELS.indexOf(options.quiet ? 'error' : (options.level ?? 'info'));
  const write =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (LOG_LEVELS.indexOf(level) < least) return;
      const requestId = currentRequestId();
      const record = {
        time: new Date().toISOString(),
        level,
        msg: message,
        ...(requestId ? { requestId } : {}),
        ...fields,
      };
      out(`${JSON.stringify(options.redact ? options.redact(record) : record)}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** `fn` bound to the current request context (for work queued now and run later, e.g. after the ack). */
export function bindRequestContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return AsyncLocalStorage.bind(fn);
}
