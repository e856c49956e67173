/**
 * Slack date tokens (`<!date^SECONDS^FORMAT|FALLBACK>`): each reader sees the time in their own
 * zone, and `{ago}` stays true as time passes ("5 minutes ago" an hour later reads "an hour ago").
 * The fallback (for clients that cannot render it, and the notification text) is computed now.
 */
import { humanDuration } from '../../core/duration.js';

export function dateToken(ms: number, format: string, fallback: string): string {
  return `<!date^${Math.floor(ms / 1000)}^${format}|${fallback.replace(/[<>|]/g, '')}>`;
}

/** "5 minutes ago" that stays true; `now` only fills the fallback. */
export function agoToken(ms: number, now: number): string {
  return dateToken(ms, '{ago}', `${humanDuration(Math.max(0, now - ms))} ago`);
}

/** A time of day in the reader's zone ("today at 14:05"), fallback in UTC. */
export function whenToken(ms: number): string {
  return dateToken(
    ms,
    '{date_short_pretty} {time}',
    `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  );
}
