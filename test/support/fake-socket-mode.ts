/**
 * A fake Slack Socket Mode endpoint (a `ws` server): greets clients with `hello`, delivers envelopes
 * (slash commands, events) and records the acks with their latency. Give its URL to the fake Web API
 * (`slack.setSocketUrl(fake.url)`) so apps.connections.open hands it out.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface SocketAck {
  envelopeId: string;
  payload: unknown;
  ms: number;
}

export interface FakeSocketMode {
  url: string;
  acks: SocketAck[];
  waitForClient(timeoutMs?: number): Promise<void>;
  /** Sends an envelope to the connected app; resolves with its ack. `envelope`: more envelope fields (`retry_attempt`, `retry_reason`). */
  send(
    type: 'slash_commands' | 'events_api' | 'interactive',
    payload: Record<string, unknown>,
    timeoutMs?: number,
    envelope?: Record<string, unknown>,
  ): Promise<SocketAck>;
  close(): Promise<void>;
}

export async function startFakeSocketMode(): Promise<FakeSocketMode> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as AddressInfo;
  const acks: SocketAck[] = [];
  const pending = new Map<string, { sent: number; resolve: (a: SocketAck) => void }>();
  let client: WebSocket | null = null;
  const clientWaiters: Array<() => void> = [];
  let counter = 0;

  wss.on('connection', (ws) => {
    client = ws;
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as { envelope_id?: string; payload?: unknown };
      if (!msg.envelope_id) return;
      const p = pending.get(msg.envelope_id);
      const ack: SocketAck = {
        envelopeId: msg.envelope_id,
        payload: msg.payload,
        ms: p ? performance.now() - p.sent : -1,
      };
      acks.push(ack);
      pending.delete(msg.envelope_id);
      p?.resolve(ack);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'fake' },
        connection_info: { app_id: 'A0APP' },
      }),
    );
    for (const w of clientWaiters.splice(0)) w();
  });

  return {
    url: `ws://127.0.0.1:${port}/link`,
    acks,
    waitForClient: (timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (client) return resolve();
        const timer = setTimeout(() => reject(new Error('no Socket Mode client connected')), timeoutMs);
        clientWaiters.push(() => {
          clearTimeout(timer);
          setTimeout(resolve, 50); // let the client handle hello
        });
      }),
    send: (type, payload, timeoutMs = 5000, envelope = {}) =>
      new Promise<SocketAck>((resolve, reject) => {
        if (!client) return reject(new Error('no Socket Mode client connected'));
        counter += 1;
        const envelopeId = `env-${counter}`;
        const timer = setTimeout(() => reject(new Error(`no ack for ${envelopeId} within ${timeoutMs} ms`)), timeoutMs);
        pending.set(envelopeId, {
          sent: performance.now(),
          resolve: (a) => {
            clearTimeout(timer);
            resolve(a);
          },
        });
        client.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type !== 'events_api',
            ...envelope,
          }),
        );
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A slash command's payload as Socket Mode delivers it (`/isvc TEXT` by U0ALICE in `channel`). */
export function socketSlashCommand(text: string, channel: string, responseUrl: string): Record<string, unknown> {
  return {
    token: 'x',
    team_id: 'T0TEST',
    team_domain: 'test',
    channel_id: channel,
    channel_name: 'general',
    user_id: 'U0ALICE',
    user_name: 'alice',
    command: '/isvc',
    text,
    api_app_id: 'A0APP',
    response_url: responseUrl,
    trigger_id: '1.2.3',
  };
}

/** An app mention's Events API payload as Socket Mode delivers it (U0BOB mentions the bot U0BOT). */
export function socketAppMention(o: {
  eventId: string;
  text: string;
  channel: string;
  ts: string;
  threadTs?: string;
}): Record<string, unknown> {
  return {
    token: 'x',
    team_id: 'T0TEST',
    api_app_id: 'A0APP',
    type: 'event_callback',
    event_id: o.eventId,
    event_time: 1,
    authorizations: [{ team_id: 'T0TEST', user_id: 'U0BOT', is_bot: true }],
    event: {
      type: 'app_mention',
      user: 'U0BOB',
      text: o.text,
      channel: o.channel,
      ts: o.ts,
      ...(o.threadTs ? { thread_ts: o.threadTs } : {}),
      event_ts: o.ts,
    },
  };
}
