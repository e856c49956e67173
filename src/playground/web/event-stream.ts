/** Server-sent events to every open page: `send(type, data)` writes one event to all of them. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class EventStream {
  private readonly clients = new Set<ServerResponse>();

  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    this.clients.add(res);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      clearInterval(ping);
      this.clients.delete(res);
    });
  }

  send(type: string, data: unknown): void {
    const frame = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.clients) res.write(frame);
  }

  close(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
