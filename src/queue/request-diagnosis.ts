/**
 * What a valid `/isvc diagnose` does after the ack: join the diagnosis already running for that
 * InferenceService (a note in its thread, or a new root message in another channel subscribed to it),
 * or post the root message "Diagnosing ns/name…" and add the job (the messages go out as events). Redis trouble surfaces as
 * QueueUnavailableError (the caller answers "queue unavailable, try again"); a root message already
 * posted is turned into that answer too.
 */
import { randomUUID } from 'node:crypto';
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import type { DiagnosisEvent } from './diagnosis-events.js';
import { CLAIM_TTL_MS, type ClusterJobQueue } from './cluster-job-queue.js';
import type { Subscriber } from './job-data.js';
import { QueueUnavailableError } from './queue-errors.js';

export interface DiagnosisRequest {
  target: TargetRef;
  channel: string;
  user: string;
  /** When asked inside a thread (an app mention there), the answers go to that thread. */
  threadTs?: string;
  /** The Slack request that asked (carried in the job data, for the logs). */
  requestId?: string;
}

export type RequestOutcome =
  | { kind: 'queued'; jobId: string; rootTs: string }
  | { kind: 'joined'; jobId: string; threadTs: string };

export interface RequestDeps {
  queue: ClusterJobQueue;
  notify: Notify<DiagnosisEvent>;
}

/** Whether the thread asked in is the verdict of this InferenceService (Redis trouble: not known, so no). */
function isVerdictRoot(deps: RequestDeps, req: DiagnosisRequest): Promise<boolean> {
  if (!req.threadTs) return Promise.resolve(false);
  return deps.queue.isVerdictRoot(req.channel, req.threadTs, req.target).catch(() => false);
}

/** Long enough to outwait a claim whose process died (a request run again from the inbox meets it). */
const LOOK_AGAIN_FOR_MS = CLAIM_TTL_MS + 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function requestDiagnosis(deps: RequestDeps, req: DiagnosisRequest): Promise<RequestOutcome> {
  const owner = randomUUID();
  let claimed = false;
  let rootTs: string | null = null;
  // asked again in the thread of this InferenceService's verdict: the verdict is brought up to date too
  const verdictTs = req.threadTs && (await isVerdictRoot(deps, req)) ? req.threadTs : undefined;
  const subscriber = (): Subscriber => ({
    channel: req.channel,
    threadTs: req.threadTs ?? rootTs!,
    rootTs: rootTs!,
    user: req.user,
    ...(verdictTs ? { verdictTs } : {}),
  });
  const postRoot = async () => {
    rootTs ??=
      (await deps.notify({
        kind: 'diagnosis-queued',
        target: req.target,
        channel: req.channel,
        user: req.user,
        ...(req.threadTs ? { threadTs: req.threadTs } : {}),
      })) ?? '';
    // a root message of its own: it shows the verdict, which later diagnoses in its thread update
    if (!req.threadTs && rootTs)
      await deps.queue.rememberVerdictRoot(req.channel, rootTs, req.target).catch(() => undefined);
  };
  try {
    const giveUpAt = Date.now() + LOOK_AGAIN_FOR_MS;
    for (let attempt = 0; attempt === 0 || Date.now() < giveUpAt; attempt += 1) {
      const running = rootTs ? null : await deps.queue.running(req.target);
      if (running) {
        const same = running.subscribers.find(
          (s) => s.channel === req.channel && (!req.threadTs || s.threadTs === req.threadTs),
        );
        if (same && (await deps.queue.join(running.jobId, { ...same, user: req.user }))) {
          await deps.notify({
            kind: 'diagnosis-joined',
            target: req.target,
            channel: req.channel,
            threadTs: same.threadTs,
            user: req.user,
          });
          return { kind: 'joined', jobId: running.jobId, threadTs: same.threadTs };
        }
        if (!same) {
          await postRoot();
          if (await deps.queue.join(running.jobId, subscriber()))
            return { kind: 'joined', jobId: running.jobId, threadTs: subscriber().threadTs };
        }
      } else {
        if (!rootTs) claimed = await deps.queue.claim(req.target, owner);
        if (rootTs || claimed) {
          await postRoot();
          const added = await deps.queue.add({
            kind: 'diagnose',
            // the whole request: the kind asked for, and whether the namespace was only the default
            target: req.target,
            subscriber: subscriber(),
            requestedAt: new Date().toISOString(),
            ...(req.requestId ? { requestId: req.requestId } : {}),
          });
          if (added.created) return { kind: 'queued', jobId: added.jobId, rootTs: rootTs! };
          if (await deps.queue.join(added.jobId, subscriber()))
            return { kind: 'joined', jobId: added.jobId, threadTs: subscriber().threadTs };
        }
      }
      // Another request is adding the job right now, or the running job is posting its answers
      // (its deduplication key goes away in a moment): look again shortly.
      await sleep(Math.min(25 * (attempt + 1), 300));
    }
    throw new QueueUnavailableError('the running diagnosis did not finish in time to start a new one');
  } catch (error) {
    if (error instanceof QueueUnavailableError && rootTs)
      await deps.notify({ kind: 'diagnosis-queue-unavailable', channel: req.channel, rootTs }).catch(() => undefined);
    throw error;
  } finally {
    if (claimed) await deps.queue.release(req.target, owner);
  }
}
