/** What the playground server sends the page (see src/playground/web/ui-routes.ts). */
export interface Person {
  id: string;
  name: string;
  title?: string;
}

export interface Channel {
  id: string;
  name: string;
  botMember: boolean;
}

export interface Message {
  channel: string;
  ts: string;
  threadTs?: string;
  user: string;
  bot: boolean;
  text: string;
  blocks?: Array<Record<string, any>>;
  editedTs?: string;
  ephemeralTo?: string;
  replyCount: number;
  replyUsers: string[];
  latestReply?: string;
}

export interface OpenView {
  id: string;
  user: string;
  view: Record<string, any>;
}

export interface IsvcRow {
  namespace: string;
  name: string;
  apiVersion: string;
  ready: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  since?: string;
  generation?: number;
  observedGeneration?: number;
}

export interface BreakAction {
  id: string;
  label: string;
  detail: string;
}

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
