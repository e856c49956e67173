/**
 * The Slack port: what the notifiers and listeners post through. Its one implementation on Slack's
 * Web API is web-api-poster.ts; tests and the playground point it at a local stand-in.
 */
import { CodedError } from '../core/coded-error.js';
import type { SlackMessage } from './slack-message.js';

/** How a post is identified, for a caller that recorded it before posting (once-poster.ts). */
export interface PostOptions {
  /** The post's own key, carried in its message metadata (default: a new one). */
  key?: string;
  /** The post may have landed already, since this time (epoch ms): look for `key` before posting. */
  maybePostedSince?: number;
}

export interface SlackPoster {
  /** Posts a message (in a thread when `threadTs` is given); returns its ts. */
  post(channel: string, message: SlackMessage, threadTs?: string, options?: PostOptions): Promise<string>;
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  ephemeral(channel: string, user: string, message: SlackMessage, threadTs?: string): Promise<void>;
  /** Deletes one of the bot's own messages (a root message that concerned only the asker); one already gone counts as deleted. Absent: not supported. */
  delete?(channel: string, ts: string): Promise<void>;
}

export class SlackPostError extends CodedError<'SLACK_NOT_IN_CHANNEL' | 'SLACK_RATE_LIMITED' | 'SLACK_API_ERROR'> {
  constructor(
    code: 'SLACK_NOT_IN_CHANNEL' | 'SLACK_RATE_LIMITED' | 'SLACK_API_ERROR',
    readonly slackError: string,
  ) {
    super(code, `${code}: ${slackError}`);
  }
}
