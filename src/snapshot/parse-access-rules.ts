/** access.yaml → deny rules: requests the snapshot's server answers with 403 Forbidden. */
import { SnapshotError } from './snapshot-error.js';
import { parseYamlFile } from './parse-yaml-file.js';

export interface DenyRule {
  verb: string;
  /** "pods", "pods/log", "clusterrbacconfigs", or with a group: "inferenceservices.serving.kserve.io". */
  resource: string;
  /** Omitted: every namespace. */
  namespace?: string;
}

export function parseAccessRules(text: string, file: string): DenyRule[] {
  const doc = parseYamlFile(text, file)[0];
  if (doc === undefined || doc === null) return [];
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new SnapshotError('expected a mapping with a `deny` list', file);
  const deny = (doc as { deny?: unknown }).deny ?? [];
  if (!Array.isArray(deny)) throw new SnapshotError('`deny` must be a list', file);
  return deny.map((rule, index) => {
    const r = rule as Partial<Record<keyof DenyRule, unknown>> | null;
    if (!r || typeof r !== 'object' || typeof r.verb !== 'string' || typeof r.resource !== 'string') {
      throw new SnapshotError(`deny[${index}] needs a verb and a resource (strings)`, file);
    }
    if (r.namespace !== undefined && r.namespace !== null && typeof r.namespace !== 'string') {
      throw new SnapshotError(`deny[${index}].namespace must be a string`, file);
    }
    return {
      verb: r.verb,
      resource: r.resource,
      ...(typeof r.namespace === 'string' ? { namespace: r.namespace } : {}),
    };
  });
}
