/**
 * The last line of defence of a `serve` process: a promise rejected with nobody listening, or an
 * exception thrown from a callback, is logged (one line, its first line of message and where) and
 * counted instead of taking the process (and every request and job in it) down. The listeners
 * and jobs handle their own errors; a line from here is a bug to fix.
 */
import type { Logger } from '../core/logger.js';
import { errorMessage } from '../core/error-message.js';

export interface ProcessGuardCounts {
  unhandledRejections: number;
  uncaughtExceptions: number;
}

export function installProcessGuards(logger: Logger, target: NodeJS.EventEmitter = process): ProcessGuardCounts {
  const counts: ProcessGuardCounts = { unhandledRejections: 0, uncaughtExceptions: 0 };
  const where = (error: unknown) =>
    (error instanceof Error ? (error.stack?.split('\n')[1]?.trim() ?? '') : '').slice(0, 200);
  target.on('unhandledRejection', (reason: unknown) => {
    counts.unhandledRejections += 1;
    logger.error(`unhandled rejection: ${errorMessage(reason, 300)}`, { at: where(reason) });
  });
  target.on('uncaughtException', (error: unknown) => {
    counts.uncaughtExceptions += 1;
    logger.error(`uncaught exception: ${errorMessage(error, 300)}`, { at: where(error) });
  });
  return counts;
}
