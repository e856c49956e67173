/**
 * The Socket Mode front door of the Slack app (a Bolt Receiver over @slack/socket-mode's client, the
 * one Bolt's own SocketModeReceiver uses), as durable as the HTTP one: each envelope Slack delivers
 * is written to the request inbox before it is acked, a redelivered event (Slack's `retry_attempt`,
 * same `event_id`) is acked and dropped, and Bolt runs only after the ack, a few at a time
 * (acked-requests.ts). A process killed right after acking leaves its requests in the inbox for the
 * next process; a full post-ack queue leaves the envelope unacked, for Slack to deliver again.
 * Slack authenticates the connection (apps.connections.open with the app token): envelopes carry no
 * signature to check.
 */
import { type App, LogLevel, type Receiver } from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';
import type { WebClientOptions } from '@slack/web-api';
import { errorMessage } from '../core/error-message.js';
import type { Logger } from '../core/logger.js';
import { AckedRequests } from './acked-requests.js';
import type { RequestInbox } from './request-inbox.js';

export interface SocketModeReceiverOptions {
  appToken: string;
  /** The Web API client's options (SLACK_API_URL) for apps.connections.open. */
  clientOptions: WebClientOptions;
  /** The durable hand-off (absent: requests are run from memory only). */
  inbox?: RequestInbox;
  logger: Logger;
}

/** What @slack/socket-mode hands over for each envelope. */
interface SocketEnvelope {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  type: string;
  body: unknown;
  retry_num?: number;
  retry_reason?: string;
}

export class SocketModeReceiver implements Receiver {
  private readonly client: SocketModeClient;
  private readonly requests: AckedRequests;

  constructor(private readonly options: SocketModeReceiverOptions) {
    this.client = new SocketModeClient({
      appToken: options.appToken,
      clientOptions: options.clientOptions,
      logLevel: LogLevel.WARN,
    });
    this.requests = new AckedRequests({
      logger: options.logger,
      ...(options.inbox ? { inbox: options.inbox } : {}),
    });
    this.client.on('slack_event', (envelope: SocketEnvelope) => {
      void this.receive(envelope).catch((error: unknown) =>
        options.logger.warn(`socket mode envelope: ${errorMessage(error, 200)}`),
      );
    });
  }

  init(app: App): void {
    this.requests.attach(app);
  }

  async start(): Promise<unknown> {
    const opened = await this.client.start();
    this.requests.start();
    return opened;
  }

  /** Stops taking envelopes, lets the running work finish; what still waits stays in the inbox. */
  async stop(): Promise<void> {
    await this.client.disconnect();
    await this.requests.stop();
  }

  private async receive(envelope: SocketEnvelope): Promise<void> {
    const body = envelope.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      this.options.logger.warn(
        `socket mode: a ${String(envelope.type).slice(0, 40)} envelope without a payload: acked, ignored`,
      );
      await envelope.ack();
      return;
    }
    const taken = await this.requests.take(body as Record<string, unknown>, {
      ...(typeof envelope.retry_num === 'number' ? { retryNum: envelope.retry_num } : {}),
      ...(typeof envelope.retry_reason === 'string' && envelope.retry_reason
        ? { retryReason: envelope.retry_reason }
        : {}),
    });
    if (taken.kind === 'busy') {
      this.options.logger.warn(
        'socket mode: the post-ack queue is full: envelope left unacked, Slack delivers it again',
      );
      return;
    }
    await envelope.ack();
    if (taken.kind === 'taken') taken.run();
  }
}
