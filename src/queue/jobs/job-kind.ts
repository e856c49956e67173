/**
 * The contract of one kind of cluster job. Each kind is one file in this folder exporting a
 * `JobKind`: what its data holds (validated when a worker picks the job up: bad data is an
 * UnrecoverableError, no retry), how it is added (its job id, which makes an add idempotent, and its
 * attempts and retention), and its processor, a plain async function. `index.ts` registers them.
 */
import type { JobsOptions } from 'bullmq';
import type { z } from 'zod';
import type { Asker } from '../command-failure.js';

/** The parts of a BullMQ Job a processor reads. */
export interface JobLike {
  id?: string;
  data: unknown;
  attemptsMade: number;
  opts: { attempts?: number };
}

export interface JobKind<K extends string, Data extends { kind: K }, Deps, Result> {
  readonly kind: K;
  /** One line for the generated table of job kinds (docs/bot.md). */
  readonly summary: string;
  /** Who adds it (the same table). */
  readonly addedBy: string;
  readonly schema: z.ZodType<Data, z.ZodTypeDef, unknown>;
  /** BullMQ's options for an add: the job id (an add with an id already there adds nothing), attempts, retention. */
  options(data: Data): JobsOptions;
  process(data: Data, job: JobLike, deps: Deps, signal?: AbortSignal): Promise<Result>;
  /**
   * The person waiting for this job's answer: when its last attempt fails, the worker tells them why
   * (queue/final-failure.ts). Absent: the kind tells its own people (a diagnosis' threads) or nobody waits.
   */
  asker?(data: Data): Asker;
}

/** A kind, its types checked where it is written. */
export function jobKind<K extends string, Data extends { kind: K }, Deps, Result>(
  kind: JobKind<K, Data, Deps, Result>,
): JobKind<K, Data, Deps, Result> {
  return kind;
}
