/**
 * `status`: list the InferenceServices of a namespace (or of every one the bot may read) with their readiness and post the list. The
 * job id is the request's, so a request run again after a crash adds nothing.
 */
import { z } from 'zod';
import { dns1123Label as isvcName } from '../../core/names.js';
import type { Notify } from '../../core/notify.js';
import type { IsvcStatusList } from '../../diagnosis/list-isvc-status.js';
import type { DiagnosisEvent } from '../diagnosis-events.js';
import { requestIdSchema } from '../job-data.js';
import { underJobDeadline } from '../job-deadline.js';
import { jobKind } from './job-kind.js';

export const statusJobSchema = z.object({
  kind: z.literal('status'),
  /** null: every namespace the bot may read. */
  namespace: isvcName.nullable(),
  channel: z.string().min(1),
  user: z.string().min(1),
  threadTs: z.string().min(1).optional(),
  requestId: requestIdSchema,
});
export type StatusJobData = z.infer<typeof statusJobSchema>;

export interface StatusDeps {
  /** `namespace` null: every namespace the bot may read; the list says which it read (`namespaces`). */
  listStatus(namespace: string | null, signal?: AbortSignal): Promise<IsvcStatusList>;
  notify: Notify<DiagnosisEvent>;
  /** The deadline of one diagnosis or status job (diagnosis.jobTimeout); none when absent. */
  jobTimeoutMs?: number;
}

export const statusJob = jobKind({
  kind: 'status',
  summary: 'list the InferenceServices of a namespace with their readiness',
  addedBy: '`/isvc status` (commands/status)',
  schema: statusJobSchema,
  options: (data) => ({
    attempts: 2,
    ...(data.requestId ? { jobId: `status__${data.namespace ?? 'all'}__${data.requestId}` } : {}),
  }),
  asker: (data) => ({
    channel: data.channel,
    user: data.user,
    ...(data.threadTs ? { threadTs: data.threadTs } : {}),
    text: data.namespace === null ? 'status -A' : `status -n ${data.namespace}`,
  }),
  async process(data, _job, deps: StatusDeps, signal): Promise<{ outcome: 'status'; count: number }> {
    const where = data.namespace ?? 'every namespace';
    const items = await underJobDeadline(deps.jobTimeoutMs, `the list of ${where}`, signal, (s) =>
      deps.listStatus(data.namespace, s),
    );
    const forbidden = items.length === 0 && items.forbidden !== undefined;
    await deps.notify({
      kind: 'status-listed',
      namespace: data.namespace,
      ...(items.namespaces ? { namespacesRead: items.namespaces } : {}),
      items,
      ...(forbidden ? { forbidden: true } : {}),
      channel: data.channel,
      ...(data.threadTs ? { threadTs: data.threadTs } : {}),
    });
    return { outcome: 'status', count: items.length };
  },
});
