/** The shape every diagnosis answer has on Slack: the root "Diagnosing ns/name…" message, then at least two replies in its thread. */
import { expect } from '@jest/globals';
import type { RecordedCall } from './fake-slack-api.js';

/** `posts`: the chat.postMessage calls of one channel, root first. */
export function diagnosisThread(
  posts: RecordedCall[],
  name = 'default/sklearn-iris',
): { rootTs: string; replies: RecordedCall[] } {
  const root = posts[0]!;
  expect(root.body.text).toBe(`Diagnosing ${name}…`);
  expect(root.body.thread_ts).toBeUndefined();
  const rootTs = root.response!.ts as string;
  const replies = posts.slice(1);
  expect(replies.length).toBeGreaterThanOrEqual(2);
  for (const r of replies)
    expect({ channel: r.body.channel, thread: r.body.thread_ts }).toEqual({
      channel: root.body.channel,
      thread: rootTs,
    });
  return { rootTs, replies };
}
