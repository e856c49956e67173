/**
 * The stand-in's workspace state: channels (and whether the bot is a member), people, and the
 * messages in them as Slack keeps them: top-level messages with their thread replies, edits
 * (chat.update), deletions, ephemeral messages seen by one person only, and open modal views.
 * Every change is published to subscribers (the playground page's event stream).
 */
import type { Channel, OpenView, Person, StoredMessage } from './message-types.js';

export type { Channel, OpenView, Person, StoredMessage } from './message-types.js';

export type StoreEvent =
  | { kind: 'message'; change: 'added' | 'updated' | 'deleted'; message: StoredMessage }
  | { kind: 'view'; change: 'opened' | 'closed'; view: OpenView }
  | { kind: 'reset' };

export class MessageStore {
  readonly channels = new Map<string, Channel>();
  readonly people = new Map<string, Person>();
  readonly openViews = new Map<string, OpenView>();
  private readonly messages = new Map<string, StoredMessage>();
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private seq = 0;

  constructor(readonly options: { autoJoin: boolean } = { autoJoin: true }) {}

  /** The channel, created as one the bot is in when `autoJoin` (test mode) and it is unknown. */
  channel(id: string): Channel | undefined {
    const known = this.channels.get(id);
    if (known || !this.options.autoJoin) return known;
    const created = { id, name: id.toLowerCase(), botMember: true };
    this.channels.set(id, created);
    return created;
  }

  /** A new, unique, increasing ts in Slack's "seconds.micros" form. */
  nextTs(): string {
    this.seq += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.seq).padStart(6, '0')}`;
  }

  get(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(`${channel}/${ts}`);
  }

  all(): StoredMessage[] {
    return [...this.messages.values()];
  }

  add(input: Omit<StoredMessage, 'ts' | 'replyCount' | 'replyUsers'>): StoredMessage {
    const message: StoredMessage = { ...input, ts: this.nextTs(), replyCount: 0, replyUsers: [] };
    this.messages.set(`${message.channel}/${message.ts}`, message);
    const parent = message.threadTs && !message.ephemeralTo ? this.get(message.channel, message.threadTs) : undefined;
    if (parent) {
      parent.replyCount += 1;
      parent.latestReply = message.ts;
      if (!parent.replyUsers.includes(message.user)) parent.replyUsers.push(message.user);
      this.publish({ kind: 'message', change: 'updated', message: parent });
    }
    this.publish({ kind: 'message', change: 'added', message });
    return message;
  }

  update(channel: string, ts: string, change: { text: string; blocks?: unknown[] }): StoredMessage | undefined {
    const message = this.get(channel, ts);
    if (!message) return undefined;
    message.text = change.text;
    if (change.blocks) message.blocks = change.blocks;
    else delete message.blocks;
    message.editedTs = this.nextTs();
    this.publish({ kind: 'message', change: 'updated', message });
    return message;
  }

  delete(channel: string, ts: string): boolean {
    const message = this.get(channel, ts);
    if (!message) return false;
    this.messages.delete(`${channel}/${ts}`);
    this.publish({ kind: 'message', change: 'deleted', message });
    return true;
  }

  openView(user: string, view: Record<string, any>): OpenView {
    const open = { id: `V${String(++this.seq).padStart(8, '0')}`, user, view };
    this.openViews.set(open.id, open);
    this.publish({ kind: 'view', change: 'opened', view: open });
    return open;
  }

  closeView(id: string): void {
    const open = this.openViews.get(id);
    if (!open) return;
    this.openViews.delete(id);
    this.publish({ kind: 'view', change: 'closed', view: open });
  }

  clear(): void {
    this.messages.clear();
    this.openViews.clear();
    this.publish({ kind: 'reset' });
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private publish(event: StoreEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // a broken subscriber must not break the Web API
      }
    }
  }
}
