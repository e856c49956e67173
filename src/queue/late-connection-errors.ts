/**
 * BullMQ 5's RedisConnection forwards a failed start-up (`initializing` rejected) as an 'error' event,
 * and its close() removes every listener first. A Queue or Worker closed while its connection was
 * still starting, with Redis gone (a shutdown during a Redis outage), gets that late 'error' on a
 * connection no one listens to any more, and Node turns it into an uncaught exception that kills the
 * process. Here a connection's 'error' with no listener left is dropped;
 * while the Queue or Worker is open its own forwarder listens, so nothing else changes.
 */
import type { EventEmitter } from 'node:events';

type Emitting = Pick<EventEmitter, 'emit' | 'listenerCount'>;

/** The RedisConnections a BullMQ Queue or Worker holds (`connection`; a Worker's `blockingConnection` too). */
function connectionsOf(owner: object): Emitting[] {
  const held = owner as { connection?: unknown; blockingConnection?: unknown };
  return [held.connection, held.blockingConnection].filter(
    (c): c is Emitting => typeof c === 'object' && c !== null && typeof (c as Emitting).emit === 'function',
  );
}

/** Makes a late 'error' on `owner`'s connections, after close() removed their listeners, a no-op; returns `owner`. */
export function dropLateConnectionErrors<T extends object>(owner: T): T {
  for (const connection of connectionsOf(owner)) {
    const emit = connection.emit.bind(connection);
    connection.emit = (event: string | symbol, ...args: unknown[]) =>
      event === 'error' && connection.listenerCount('error') === 0 ? false : emit(event, ...args);
  }
  return owner;
}
