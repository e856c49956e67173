import { CodedError } from '../core/coded-error.js';

/** Slack refused the bot's token at start (auth.test). A module of its own: `serve` tells it apart without loading Bolt. */
export class SlackStartError extends CodedError<'SLACK_AUTH_FAILED'> {
  constructor(message: string) {
    super('SLACK_AUTH_FAILED', message);
  }
}
