/**
 * What the diagnosis jobs tell people, as surface-neutral events: the notifier of a surface renders
 * and posts each one (src/notify/). A subscriber is one thread waiting for a diagnosis.
 */
import type { TargetRef } from '../core/target-ref.js';
import type { IsvcStatus } from '../diagnosis/list-isvc-status.js';
import type { Report } from '../findings/types.js';
import type { Asker, CommandFailure } from './command-failure.js';
import type { Subscriber } from './job-data.js';

/** What a queued diagnosis is doing. */
export type Progress =
  | { phase: 'queued' }
  | { phase: 'running'; attempt: number }
  | { phase: 'retrying'; attempt: number; delayMs: number; reason: string };

export type DiagnosisFailure =
  | { kind: 'cluster-unreachable'; reason: string; attempts: number }
  | { kind: 'failed'; code: string }
  /** Stopped at the job's deadline (diagnosis.jobTimeout). */
  | { kind: 'timed-out'; seconds: number };

export type DiagnosisEvent =
  /** The root message "Diagnosing ns/name…"; the notifier resolves to its ts. */
  | { kind: 'diagnosis-queued'; target: TargetRef; channel: string; threadTs?: string; user: string }
  /** Someone asked for a diagnosis already running: a note in its thread. */
  | { kind: 'diagnosis-joined'; target: TargetRef; channel: string; threadTs: string; user: string }
  /** The root message of a request Redis refused. */
  | { kind: 'diagnosis-queue-unavailable'; channel: string; rootTs: string }
  | { kind: 'diagnosis-progress'; target: TargetRef; subscriber: Subscriber; progress: Progress }
  /** The first reply of the report (its deciding evidence) in the subscriber's thread. */
  | { kind: 'diagnosis-reported'; report: Report; subscriber: Subscriber }
  /** After any remediation offered for it: the rest of the report in the thread, then the root message turned into the verdict. */
  | { kind: 'diagnosis-details'; report: Report; subscriber: Subscriber }
  | { kind: 'diagnosis-failed'; target: TargetRef; subscriber: Subscriber; failure: DiagnosisFailure }
  /** `forbidden`: the bot may not list InferenceServices there (an empty list would read as none). */
  | {
      kind: 'status-listed';
      /** null: every namespace the bot may read (`namespacesRead`: which those were, when configured). */
      namespace: string | null;
      namespacesRead?: string[];
      items: IsvcStatus[];
      forbidden?: boolean;
      channel: string;
      threadTs?: string;
    }
  /** A command's job ended without its answer (its last attempt failed): the asker is told why, ephemerally. */
  | { kind: 'command-failed'; asker: Asker; failure: CommandFailure };
