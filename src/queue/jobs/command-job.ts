/**
 * `command` (multi-cluster): a command that reads the cluster itself (`/isvc rollout`), handed by
 * the web process to the cluster's agent, which runs it as if it were typed there. A request handled
 * again after a crash adds nothing.
 */
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { requestIdSchema } from '../job-data.js';
import { jobKind } from './job-kind.js';

export const commandJobSchema = z.object({
  kind: z.literal('command'),
  text: z.string().max(4000),
  channel: z.string().min(1),
  user: z.string().min(1),
  threadTs: z.string().min(1).optional(),
  /** A button's command: the clicked message (a rollout view the change then updates). */
  clickedTs: z.string().min(1).optional(),
  requestId: requestIdSchema,
});
export type CommandJobData = z.infer<typeof commandJobSchema>;

export interface CommandJobDeps {
  /** A cluster agent's: runs the command as if typed there; absent on other workers (the job then fails, unretried). */
  runForwardedCommand?(data: CommandJobData): Promise<void>;
}

export const commandJob = jobKind({
  kind: 'command',
  summary: "run a command that reads the cluster (`/isvc rollout`) on that cluster's agent (multi-cluster)",
  addedBy: 'the multi-cluster web process (commands/index, a command routed to a cluster)',
  schema: commandJobSchema,
  options: (data) => ({ attempts: 2, ...(data.requestId ? { jobId: `command__${data.requestId}` } : {}) }),
  asker: (data) => ({
    channel: data.channel,
    user: data.user,
    ...(data.threadTs ? { threadTs: data.threadTs } : {}),
    text: data.text,
  }),
  async process(data, _job, deps: CommandJobDeps): Promise<{ outcome: 'forwarded'; result: string }> {
    if (!deps.runForwardedCommand)
      throw new UnrecoverableError('FORWARD_UNSUPPORTED: this worker is not a cluster agent');
    await deps.runForwardedCommand(data);
    return { outcome: 'forwarded', result: 'ran' };
  },
});
