/**
 * The one registry of the cluster job kinds: every kind the cluster job queue carries, keyed by its
 * `kind` (also the BullMQ job name). A worker runs a job through its kind's processor; a kind that is
 * not listed here does not exist (a test checks every file of this folder is registered, and
 * docs/bot.md's table of job kinds is generated from it).
 */
import { clickJob } from './click-job.js';
import { commandJob } from './command-job.js';
import { diagnoseJob } from './diagnose-job.js';
import type { JobKind } from './job-kind.js';
import { mcpJob } from './mcp-job.js';
import { remediateJob } from './remediate-job.js';
import { statusJob } from './status-job.js';

export const JOB_KINDS = {
  diagnose: diagnoseJob,
  status: statusJob,
  remediate: remediateJob,
  click: clickJob,
  command: commandJob,
  mcp: mcpJob,
} as const;

type Kinds = typeof JOB_KINDS;
export type JobKindName = keyof Kinds;

type DataOf<K> = K extends JobKind<string, infer D, never, unknown> ? D : never;
type ResultOf<K> = K extends { process(...args: never[]): Promise<infer R> } ? R : never;
type DepsOf<K> = K extends { process(data: never, job: never, deps: infer D, signal?: AbortSignal): unknown }
  ? D
  : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The data of a job of any kind. */
export type JobData = DataOf<Kinds[JobKindName]>;
/** What a worker's processor returns, for any kind. */
export type JobResult = ResultOf<Kinds[JobKindName]>;
/** What a worker gives the processors: the union of what each kind needs. */
export type JobDeps = Intersection<DepsOf<Kinds[JobKindName]>>;

/** The kind of a name found in a job, or undefined. */
export function jobKindOf(name: unknown): Kinds[JobKindName] | undefined {
  return typeof name === 'string' && Object.hasOwn(JOB_KINDS, name) ? JOB_KINDS[name as JobKindName] : undefined;
}
