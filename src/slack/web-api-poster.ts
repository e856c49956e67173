/**
 * The Slack port on Slack's Web API: root messages, thread replies, updates, ephemeral answers.
 *
 * Retries are decided here, not inside the WebClient (the posting client makes one attempt per
 * call: `createPostingClient`), because a retried post is only safe when the first one surely did
 * not land:
 * - 429: Slack did nothing; wait Retry-After, try again;
 * - a Slack error (`ok: false`): final, a SlackPostError with its code;
 * - a 5xx, a timeout, a dropped connection: the post may have landed. Each post carries a key of its
 *   own in its message metadata; before trying again the poster looks for a message with that key
 *   in the channel (or thread) and returns its ts when it is there, so a retry never duplicates a
 *   root or a reply. The look-up is a bounded fallback, not the record (a caller that must survive
 *   a crash records its posts in Redis before and after: once-poster.ts): one page of at most 15
 *   messages (what Slack now serves apps outside its Marketplace), a Retry-After waited only when
 *   short. When it cannot tell (no `channels:history` scope, history rate-limited, the page full of
 *   newer messages) the post degrades to at-least-once: it is posted again, with a warning, rather
 *   than lost. Updates are idempotent and simply retried.
 */
import { randomUUID } from 'node:crypto';
// the Web API client itself, not through Bolt's re-export: a process that only posts (the workers) never loads Bolt
import * as webApi from '@slack/web-api';
import { LogLevel } from '@slack/web-api';
import { SlackPostError, type SlackPoster } from './slack-poster.js';

/** One page of the look-up: what conversations.history / replies serve a non-Marketplace app at most. */
const LOOKUP_PAGE = 15;
/** A look-up waits out a Retry-After up to this long; history's one-a-minute limit means "cannot tell". */
const LOOKUP_MAX_WAIT_MS = 3000;

export interface SlackClientSettings {
  botToken: string;
  apiUrl: string;
  /** Retries for 429 (after Retry-After), 5xx and network errors. */
  retries?: number;
  /** Milliseconds before a call is given up (default 15 s). */
  timeoutMs?: number;
}

/** WebClient options shared by Bolt's client and the workers' client. */
type WebClient = webApi.WebClient;

export function slackClientOptions(
  settings: Pick<SlackClientSettings, 'apiUrl' | 'retries' | 'timeoutMs'>,
): webApi.WebClientOptions {
  return {
    slackApiUrl: settings.apiUrl,
    rejectRateLimitedCalls: false,
    retryConfig: { retries: settings.retries ?? 5, factor: 2, minTimeout: 200, maxTimeout: 10_000, randomize: true },
    timeout: settings.timeoutMs ?? 15_000,
    logLevel: LogLevel.WARN,
  };
}

export function createSlackWebClient(settings: SlackClientSettings): WebClient {
  return new webApi.WebClient(settings.botToken, slackClientOptions(settings));
}

/** The client of the poster: one attempt per call, 429 handed back (createSlackPoster retries). */
export function createPostingClient(settings: Omit<SlackClientSettings, 'retries'>): WebClient {
  return new webApi.WebClient(settings.botToken, {
    ...slackClientOptions({ ...settings, retries: 0 }),
    rejectRateLimitedCalls: true,
  });
}

export interface PosterOptions {
  /** Attempts of one call (default 5). */
  attempts?: number;
  /** Backoff base between attempts after a 5xx or network error (default 250 ms). */
  backoffMs?: number;
  sleep?(ms: number): Promise<void>;
  /** Told when a post is sent again without knowing whether the earlier try landed. */
  warn?(message: string): void;
}

/** The metadata event type that carries a post's key. */
export const POST_KEY_EVENT = 'isvc_doctor_post';

type Outcome =
  | { kind: 'rate-limited'; retryAfterMs: number }
  | { kind: 'final'; error: unknown }
  | { kind: 'unknown'; error: unknown };

function classify(error: unknown): Outcome {
  // web-api 8's errors are Error subclasses (its ErrorCode values unchanged): the poster's client is
  // always this package's own WebClient, so instanceof holds
  if (error instanceof webApi.WebAPIPlatformError) {
    const slackError = error.data.error ?? 'unknown';
    const notIn = slackError === 'not_in_channel' || slackError === 'channel_not_found' || slackError === 'is_archived';
    if (slackError === 'ratelimited') return { kind: 'rate-limited', retryAfterMs: 1000 };
    return { kind: 'final', error: new SlackPostError(notIn ? 'SLACK_NOT_IN_CHANNEL' : 'SLACK_API_ERROR', slackError) };
  }
  // a 429 (Retry-After in seconds) handed back by the posting client (rejectRateLimitedCalls)
  if (error instanceof webApi.WebAPIRateLimitedError)
    return { kind: 'rate-limited', retryAfterMs: Math.max(1, error.retryAfter || 1) * 1000 };
  // a non-200 answer (5xx) or no answer at all (fetch failed: the timeout's AbortSignal, a reset, a
  // dropped connection; its cause is the network error): it may or may not have landed
  if (error instanceof webApi.WebAPIHTTPError || error instanceof webApi.WebAPIRequestError)
    return { kind: 'unknown', error };
  return { kind: 'final', error };
}

const finalError = (error: unknown) =>
  error instanceof SlackPostError
    ? error
    : new SlackPostError('SLACK_API_ERROR', (error as { code?: string })?.code ?? 'unknown');

export function createSlackPoster(client: WebClient, options: PosterOptions = {}): SlackPoster {
  const attempts = options.attempts ?? 5;
  const backoff = (i: number) => Math.min((options.backoffMs ?? 250) * 2 ** i, 5000);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  /** Runs an idempotent call with retries (429 after Retry-After; 5xx and network errors after a backoff). */
  const retried = async <T>(call: () => Promise<T>): Promise<T> => {
    let last: unknown;
    for (let i = 0; i < attempts; i += 1) {
      try {
        return await call();
      } catch (error) {
        const o = classify(error);
        if (o.kind === 'final') throw o.error;
        last = o.kind === 'unknown' ? o.error : error;
        await sleep(o.kind === 'rate-limited' ? o.retryAfterMs : backoff(i));
      }
    }
    throw finalError(last);
  };

  /**
   * The ts of the message carrying `key`, posted since `sinceMs`: null when it is surely not there,
   * 'unknown' when the look-up cannot tell (a Slack error such as missing_scope, a long rate limit,
   * a full page). One page, at most two tries.
   */
  const findPosted = async (
    channel: string,
    threadTs: string | undefined,
    key: string,
    sinceMs: number,
  ): Promise<string | null | 'unknown'> => {
    // a minute of slack for the clocks of this host and Slack's
    const oldest = String(Math.floor(sinceMs / 1000) - 60);
    const args = { channel, oldest, inclusive: true, include_all_metadata: true, limit: LOOKUP_PAGE };
    for (let i = 0; i < 2; i += 1) {
      try {
        const res = threadTs
          ? await client.conversations.replies({ ...args, ts: threadTs })
          : await client.conversations.history(args);
        const found = (res.messages ?? []).find(
          (m) => (m as { metadata?: { event_payload?: { key?: unknown } } }).metadata?.event_payload?.key === key,
        );
        if (found?.ts) return found.ts;
        return res.has_more ? 'unknown' : null;
      } catch (error) {
        const o = classify(error);
        if (o.kind === 'final' || (o.kind === 'rate-limited' && o.retryAfterMs > LOOKUP_MAX_WAIT_MS)) return 'unknown';
        await sleep(o.kind === 'rate-limited' ? o.retryAfterMs : backoff(i));
      }
    }
    return 'unknown';
  };

  return {
    async post(channel, message, threadTs, postOptions = {}) {
      const key = postOptions.key ?? randomUUID();
      const since = postOptions.maybePostedSince ?? Date.now();
      const cannotTell = (why: string) =>
        options.warn?.(
          `slack: could not tell whether a post to ${channel} landed (${why}); posting it again, it may show twice`,
        );
      let lookUp = true;
      if (postOptions.maybePostedSince !== undefined) {
        const landed = await findPosted(channel, threadTs, key, since);
        if (landed === 'unknown') {
          cannotTell('a run after a crash');
          lookUp = false;
        } else if (landed) return landed;
      }
      let last: unknown;
      for (let i = 0; i < attempts; i += 1) {
        try {
          const res = await client.chat.postMessage({
            channel,
            text: message.text,
            blocks: message.blocks as never,
            ...(threadTs ? { thread_ts: threadTs } : {}),
            unfurl_links: false,
            metadata: { event_type: POST_KEY_EVENT, event_payload: { key } },
          });
          return String(res.ts ?? '');
        } catch (error) {
          const o = classify(error);
          if (o.kind === 'final') throw o.error;
          last = error;
          if (o.kind === 'rate-limited') {
            await sleep(o.retryAfterMs);
            continue;
          }
          // it may have landed: look before posting again (once the look-up could not tell, just post again)
          await sleep(backoff(i));
          if (!lookUp) continue;
          const landed = await findPosted(channel, threadTs, key, since);
          if (landed === 'unknown') {
            cannotTell((error as { code?: string })?.code ?? 'an error');
            lookUp = false;
          } else if (landed) return landed;
        }
      }
      throw finalError(last);
    },
    async update(channel, ts, message) {
      await retried(() => client.chat.update({ channel, ts, text: message.text, blocks: message.blocks as never }));
    },
    async ephemeral(channel, user, message, threadTs) {
      await retried(() =>
        client.chat.postEphemeral({
          channel,
          user,
          text: message.text,
          blocks: message.blocks as never,
          ...(threadTs ? { thread_ts: threadTs } : {}),
        }),
      );
    },
    async delete(channel, ts) {
      try {
        await retried(() => client.chat.delete({ channel, ts }));
      } catch (error) {
        // already gone (deleted by a run of the same job that a crash cut short): what a delete wants
        if (error instanceof SlackPostError && error.slackError === 'message_not_found') return;
        throw error;
      }
    },
  };
}
