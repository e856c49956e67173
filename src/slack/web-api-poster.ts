/**
 * The Slack port on Slack's Web API: root messages, thread replies, updates, ephemeral answers.
 * One WebClient per process, built here with the project's retry policy: 429s are waited out
 * honouring Retry-After (rejectRateLimitedCalls: false) and retried, like network errors and 5xx,
 * a bounded number of times. Slack's error codes become SlackPostError codes.
 */
import { LogLevel, webApi } from '@slack/bolt';
import { SlackPostError, type SlackPoster } from './slack-poster.js';

export interface SlackClientSettings {
  botToken: string;
  apiUrl: string;
  /** Retries for 429 (after Retry-After), 5xx and network errors. */
  retries?: number;
}

/** WebClient options shared by Bolt's client and the workers' client. */
type WebClient = webApi.WebClient;

export function slackClientOptions(settings: Pick<SlackClientSettings, 'apiUrl' | 'retries'>): webApi.WebClientOptions {
  return {
    slackApiUrl: settings.apiUrl,
    rejectRateLimitedCalls: false,
    retryConfig: { retries: settings.retries ?? 5, factor: 2, minTimeout: 200, maxTimeout: 10_000, randomize: true },
    timeout: 15_000,
    logLevel: LogLevel.WARN,
  };
}

export function createSlackWebClient(settings: SlackClientSettings): WebClient {
  return new webApi.WebClient(settings.botToken, slackClientOptions(settings));
}

function asPostError(error: unknown): unknown {
  const e = error as { code?: string; data?: { error?: string } };
  if (e?.code === 'slack_webapi_platform_error') {
    const slackError = e.data?.error ?? 'unknown';
    const notIn = slackError === 'not_in_channel' || slackError === 'channel_not_found' || slackError === 'is_archived';
    return new SlackPostError(notIn ? 'SLACK_NOT_IN_CHANNEL' : 'SLACK_API_ERROR', slackError);
  }
  if (e?.code === 'slack_webapi_rate_limited_error') return new SlackPostError('SLACK_RATE_LIMITED', 'ratelimited');
  return error;
}

export function createSlackPoster(client: WebClient): SlackPoster {
  return {
    async post(channel, message, threadTs) {
      try {
        const res = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks as never, ...(threadTs ? { thread_ts: threadTs } : {}), unfurl_links: false });
        return String(res.ts ?? '');
      } catch (error) {
        throw asPostError(error);
      }
    },
    async update(channel, ts, message) {
      try {
        await client.chat.update({ channel, ts, text: message.text, blocks: message.blocks as never });
      } catch (error) {
        throw asPostError(error);
      }
    },
    async ephemeral(channel, user, message, threadTs) {
      try {
        await client.chat.postEphemeral({ channel, user, text: message.text, blocks: message.blocks as never, ...(threadTs ? { thread_ts: threadTs } : {}) });
      } catch (error) {
        throw asPostError(error);
      }
    },
  };
}
