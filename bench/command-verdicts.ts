/**
 * How many slash commands of a burst have their verdict at the fake Slack: the root message turned
 * from "Diagnosing…" into the verdict (chat.update), or, for a name that does not exist, the verdict
 * told to the asker alone and the public "Diagnosing…" root removed (chat.delete). Counted once per
 * channel (each command of a burst has a channel of its own), among the calls from index `from` on.
 */
import type { FakeSlackApi, RecordedCall } from '../test/support/fake-slack-api.js';

const stillDiagnosing = (text: unknown) => /^(\[[a-z0-9-]+\] )?Diagnosing/.test(String(text ?? ''));

export const isVerdict = (c: RecordedCall): boolean =>
  c.method === 'chat.delete' || (c.method === 'chat.update' && !stillDiagnosing(c.body.text));

export function commandVerdicts(slack: FakeSlackApi, from: number, channelPrefix: string): number {
  const done = new Set<string>();
  for (const c of slack.calls.slice(from)) {
    const channel = String(c.body.channel ?? '');
    if (channel.startsWith(channelPrefix) && isVerdict(c)) done.add(channel);
  }
  return done.size;
}
