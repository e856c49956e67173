/**
 * Every command shows the asker it is at work: when its run takes more than a moment (it reads the
 * cluster: a rollout) or hands the work over to a job (a status list, a command forwarded to a
 * cluster's agent), the asker is told "reading the cluster…" at once, and the job or the runner
 * ends it with the answer or with why there is none (queue/final-failure.ts, runCommand). A command
 * that shows its own progress where everyone sees it (diagnose's root message) is left alone.
 * The asker's answers go out one after another, so "reading the cluster…" never lands after the answer.
 */
import type { CommandContext, CommandReply } from './command.js';

/** How long a run may go without a word before the asker is told it is at work. */
export const WORKING_AFTER_MS = 1000;

/** A run's outcomes that hand the work over: its answer comes later, from a job. */
const HANDED_OVER = new Set(['queued', 'forwarded']);

export interface CommandProgress {
  /** The asker's replies, in order; any of them counts as shown. */
  reply: CommandContext['reply'];
  /** After the run: tells the asker it is at work when the run handed over without a word. */
  settled(outcome: string): Promise<void>;
  /** Stops the clock (the run failed: the runner's answer follows). */
  stop(): void;
}

export function commandProgress(
  text: string,
  send: CommandContext['reply'],
  o: { quiet: boolean; afterMs?: number },
): CommandProgress {
  let shown = o.quiet;
  let last: Promise<unknown> = Promise.resolve();
  const reply = (r: CommandReply): Promise<unknown> => {
    shown = true;
    const sent = last.then(() => send(r));
    last = sent.catch(() => undefined);
    return sent;
  };
  const working: CommandReply = { kind: 'working', text };
  const timer = o.quiet
    ? undefined
    : setTimeout(() => {
        if (!shown) void reply(working);
      }, o.afterMs ?? WORKING_AFTER_MS);
  timer?.unref();
  return {
    reply,
    stop: () => clearTimeout(timer),
    async settled(outcome) {
      clearTimeout(timer);
      if (!shown && HANDED_OVER.has(outcome)) await reply(working);
      await last;
    },
  };
}
