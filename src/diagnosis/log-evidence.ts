import type { Evidence } from '../findings/types.js';
import { ForbiddenError } from '../kube/errors.js';
import { refOf } from '../kube/inference-service-view.js';
import { excerptLog, type ExcerptOptions } from '../logs/log-excerpt.js';
import type { DiagnosisContext } from './playbook.js';

export interface ContainerLog {
  /** The raw text (bounded by tailLines/limitBytes), or null when unavailable. */
  text: string | null;
  evidence: Evidence;
}

/**
 * Reads a container's log (the previous instance first when asked, falling back to the current one)
 * and turns it into a log-excerpt evidence. A log the bot may not read, or that does not exist, is
 * evidence too ("logs unavailable"), never a failure of the check.
 */
export async function readContainerLog(
  ctx: DiagnosisContext,
  namespace: string,
  pod: string,
  container: string,
  options: { preferPrevious?: boolean; head?: boolean; currentOnly?: boolean } & ExcerptOptions = {},
): Promise<ContainerLog> {
  const ref = refOf('Pod', namespace, pod);
  const order = options.currentOnly ? [false] : options.preferPrevious ? [true, false] : [false, true];
  try {
    for (const previous of order) {
      const text = await ctx.reader.podLog(namespace, pod, container, {
        previous,
        ...(options.head && !previous ? { head: true } : {}),
      });
      if (text && text.trim() !== '') {
        const excerpt = excerptLog(text, options);
        return {
          text,
          evidence: {
            kind: 'log',
            ref,
            container,
            previous,
            excerpt: excerpt.lines,
            lineNumbers: excerpt.lineNumbers,
            truncated: excerpt.truncated,
          },
        };
      }
    }
    return { text: null, evidence: { kind: 'note', ref, container, text: `no logs for container ${container}` } };
  } catch (error) {
    if (error instanceof ForbiddenError) {
      return { text: null, evidence: { kind: 'note', ref, container, text: `logs unavailable: ${error.message}` } };
    }
    throw error;
  }
}

/**
 * A message that holds a log's tail (a termination message under FallbackToLogsOnError, KServe's
 * modelStatus, Knative's "Container failed with:") as a log-excerpt evidence; undefined when empty.
 */
export function messageLogEvidence(
  message: string | undefined,
  where: { ref: string; container: string; label: string; match?: RegExp },
): Evidence | undefined {
  if (!message || message.trim() === '') return undefined;
  const excerpt = excerptLog(message, where.match ? { match: where.match } : {});
  return {
    kind: 'log',
    ref: where.ref,
    container: where.container,
    text: where.label,
    excerpt: excerpt.lines,
    lineNumbers: excerpt.lineNumbers,
    truncated: excerpt.truncated,
  };
}
