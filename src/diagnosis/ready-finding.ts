/**
 * ISVC_READY: the clean bill of an InferenceService that is Ready and about which no playbook found a
 * problem: its URL, the ready revision of each component and its age.
 */
import { humanDuration } from '../core/duration.js';
import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import { isvcUrl, refOf } from '../kube/inference-service-view.js';
import type { DiagnosisContext } from './playbook.js';

export function readyFinding(ctx: DiagnosisContext): Finding {
  const isvc = ctx.target.isvc;
  const created = isvc.metadata.creationTimestamp ? new Date(isvc.metadata.creationTimestamp) : undefined;
  const age = created ? humanDuration(ctx.now().getTime() - created.getTime()) : 'unknown';
  const url = isvcUrl(isvc);
  const components = (isvc.status?.components ?? {}) as Record<string, Record<string, unknown>>;
  const latestReady = Object.entries(components)
    .map(([name, c]) => (typeof c.latestReadyRevision === 'string' ? `${name}: ${c.latestReadyRevision}` : undefined))
    .filter(Boolean)
    .join(', ');
  return finding('ISVC_READY', {
    subject: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    title: `${ctx.target.name} is ready${url ? ` at ${url}` : ''}`,
    evidence: [
      {
        kind: 'field',
        ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
        text: `url: ${url ?? 'none'}`,
      },
      ...(latestReady
        ? [
            {
              kind: 'field' as const,
              ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
              text: `ready revision: ${latestReady}`,
            },
          ]
        : []),
      { kind: 'field', ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name), text: `age: ${age}` },
    ],
  });
}
