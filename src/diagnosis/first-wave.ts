/**
 * The first wave of a diagnosis: every read that depends only on the InferenceService's name and
 * namespace starts together with the lookup of the InferenceService itself, through the memoised
 * reader; the playbooks then find them answered, and only reads that depend on what those answers
 * say (a pod's log, a gateway a VirtualService names) make a second wave.
 *
 * The reads most playbooks share are here (the related objects: events, the service's pods by
 * label, Knative Services, Revisions, VirtualServices); a playbook adds its own through its
 * optional `firstWave` (e.g. the ingress controller's pods). To add a read: return it from your
 * playbook's `firstWave`, reading through the reader's methods exactly as `run` will (same
 * arguments), so the two share one request. Groups the cluster does not serve cost no request.
 */
import type { DiagnosisConfig } from '../config.js';
import type { ClusterReader } from '../kube/cluster-reader.js';
import { inferenceServiceLabel } from '../kube/resources.js';
import type { FirstWaveTarget, Playbook } from './playbook.js';

export function firstWaveTarget(reader: ClusterReader, namespace: string, name: string): FirstWaveTarget {
  return { namespace, name, labelSelector: `${inferenceServiceLabel(reader.likelyInferenceServiceGroup())}=${name}` };
}

/**
 * Starts the first wave (does not wait for it); a failed read is seen by the playbook that awaits
 * it. The reads go out in this order and their answers come back and are read in about the same
 * order (the InferenceService, asked just before, first): what second-wave reads are decided from
 * first (the service's pods: its logs, its limits; each playbook's own reads, e.g. the ingress
 * controller's pods and the gateway), the shared context after, the events last (the longest answer
 * to read, read while the second wave is out). When the playbooks are not loaded yet, their own
 * reads follow in a second call, once they are.
 */
export function startFirstWave(
  reader: ClusterReader,
  target: FirstWaveTarget,
  config: DiagnosisConfig,
  playbooks: readonly Playbook[],
): void {
  const reads = [
    reader.pods(target.namespace, target.labelSelector),
    ...playbooks.flatMap((p) => safely(() => p.firstWave?.(reader, target, config) ?? [])),
    // the reads shared by several playbooks (src/diagnosis/related-objects.ts reads them the same way)
    reader.listKind('KnativeService', target.namespace),
    reader.listKind('Revision', target.namespace),
    reader.listKind('VirtualService', target.namespace),
    reader.events(target.namespace),
  ];
  for (const read of reads) read.catch(() => undefined);
}

/** A playbook's first-wave reads, or none when planning them throws (the playbook then reads on its own). */
export function safely(f: () => Array<Promise<unknown>>): Array<Promise<unknown>> {
  try {
    return f();
  } catch {
    return [];
  }
}
