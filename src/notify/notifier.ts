/**
 * A notifier from one handler per event kind: every kind of a layer's events must have its handler
 * (checked when compiling), and each handler renders and posts that event.
 */
import type { Notify } from '../core/notify.js';

export type EventHandlers<E extends { kind: string }> = {
  [K in E['kind']]: (event: Extract<E, { kind: K }>) => Promise<string | null>;
};

export function notifierOf<E extends { kind: string }>(handlers: EventHandlers<E>): Notify<E> {
  return (event) => (handlers[event.kind as E['kind']] as (e: E) => Promise<string | null>)(event);
}
