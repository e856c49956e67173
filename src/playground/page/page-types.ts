/** What the playground server sends the page (see src/playground/web/ui-routes.ts). */
import type { BreakAction, IsvcRow } from '../cluster/panel-types.js';
import type { Channel, OpenView, Person, StoredMessage as Message } from '../../slack-standin/message-types.js';

export type { BreakAction, Channel, IsvcRow, Message, OpenView, Person };

export interface LogLine {
  level: string;
  msg: string;
  time?: string;
}

export interface PageState {
  bot: { id: string; name: string };
  team: string;
  people: Person[];
  channels: Channel[];
  messages: Message[];
  views: OpenView[];
  cluster: { name: string; rows: IsvcRow[] };
  processes: Record<string, string>;
  logs: LogLine[];
}

export type SlackEvent =
  | { kind: 'message'; change: 'added' | 'updated' | 'deleted'; message: Message }
  | { kind: 'view'; change: 'opened' | 'closed'; view: OpenView }
  | { kind: 'reset' };
