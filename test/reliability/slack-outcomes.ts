/**
 * What the Slack stand-in received, read as a person in each channel sees it: answered (a verdict
 * or an ephemeral answer), its root messages, posts that repeat an earlier one. Shared by the parts
 * that kill the bot (faults.test.ts over HTTP, socket-mode.test.ts over Socket Mode).
 */
import type { FakeSlackApi, RecordedCall } from '../support/fake-slack-api.js';

/** The root turned from "Diagnosing…" into what happened (a verdict, CLUSTER_UNREACHABLE, DIAGNOSIS_TIMEOUT, …). */
export const isVerdict = (c: RecordedCall) =>
  c.method === 'chat.update' && c.status === 200 && !String(c.body.text).startsWith('Diagnosing');

/** An InferenceService that does not exist is answered to the asker alone (ephemeral), its root removed. */
export const isEphemeralAnswer = (c: RecordedCall) =>
  c.method === 'chat.postEphemeral' && c.status === 200 && c.response?.ok === true;

/** `standIn`: the stand-in now (a part starts it in beforeAll). */
export function slackOutcomes(standIn: () => FakeSlackApi) {
  const answered = (channel: string) =>
    standIn().calls.some((c) => c.body.channel === channel && (isVerdict(c) || isEphemeralAnswer(c)));
  /** Root messages posted in the channel (deleted ones included). */
  const rootsIn = (channel: string) =>
    standIn().calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.status === 200 &&
        c.response?.ok === true &&
        c.body.channel === channel &&
        !c.body.thread_ts,
    );
  /**
   * Posts in the channel that repeat an earlier one (same thread, same text): each is a duplicate.
   * Ephemeral answers are counted apart (ephemeralRepeatsIn).
   */
  const duplicatesIn = (channel: string): number => {
    const seen = new Set<string>();
    let dup = 0;
    for (const m of standIn()
      .store.all()
      .filter((x) => x.channel === channel && !x.ephemeralTo)) {
      const key = `${m.threadTs ?? 'root'}\u0000${m.text}`;
      if (seen.has(key)) dup += 1;
      seen.add(key);
    }
    return dup;
  };
  /**
   * Ephemeral answers in the channel beyond the first. A process killed during the one Slack call of
   * an ephemeral answer leaves it "pending", and the next run sends it again: Slack keeps no ephemeral
   * message to look up, and a repeated answer beats a lost one (src/slack/once-poster.ts). One kill can
   * repeat an answer at most once.
   */
  const ephemeralRepeatsIn = (channel: string): number =>
    Math.max(0, standIn().calls.filter((c) => c.body.channel === channel && isEphemeralAnswer(c)).length - 1);
  /** Roots still saying "Diagnosing…" in these channels. */
  const stuckIn = (channels: string[]) =>
    standIn()
      .store.all()
      .filter((m) => channels.includes(m.channel) && !m.threadTs && m.text.startsWith('Diagnosing')).length;
  /** What each channel got, for a failure to say. */
  const report = (channels: string[]) =>
    JSON.stringify(
      channels.map((ch) => [
        ch,
        standIn()
          .calls.filter((c) => c.body.channel === ch)
          .map((c) => [c.method, c.status, String(c.body.text).slice(0, 40), c.body.ts ?? c.response?.ts]),
      ]),
    );
  return { answered, rootsIn, duplicatesIn, ephemeralRepeatsIn, stuckIn, report };
}
