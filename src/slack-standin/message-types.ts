/** The Slack stand-in's workspace records (plain data: the playground page reads them too). */
export interface Channel {
  id: string;
  name: string;
  /** Whether the bot may post here (Slack answers `not_in_channel` otherwise). */
  botMember: boolean;
}

export interface Person {
  id: string;
  name: string;
  /** Shown next to the name in the page (e.g. "approver"). */
  title?: string;
}

export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  /** Who wrote it: a person's id, or the bot's user id for the bot. */
  user: string;
  bot: boolean;
  text: string;
  blocks?: unknown[];
  /** When chat.update last changed it. */
  editedTs?: string;
  /** Set for ephemeral messages: the one person who sees it. */
  ephemeralTo?: string;
  /** Message metadata as posted (chat.postMessage `metadata`), returned by conversations.history / replies with include_all_metadata. */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  replyCount: number;
  replyUsers: string[];
  latestReply?: string;
}

export interface OpenView {
  id: string;
  user: string;
  view: Record<string, any>;
}
