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

export function createLogger(options: { quiet?: boolean; write?: (line: string) => void } = {}): Logger {
  const out = options.write ?? ((line: string) => void process.stderr.write(line));
  const write = (level: string) => (message: string, fields: LogFields = {}) => {
    if (options.quiet && level !== 'error') return;
    const requestId = currentRequestId();
    out(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...(requestId ? { requestId } : {}), ...fields })}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** `fn` bound to the current request context (for work queued now and run later, e.g. after the ack). */
export function bindRequestContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return AsyncLocalStorage.bind(fn);
}
