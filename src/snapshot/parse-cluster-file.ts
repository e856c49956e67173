/**
 * cluster.yaml → what the snapshot's cluster runs: product releases (`kubernetes: 1.20`,
 * `kserve: 0.7`, `kfserving: 0.5`, `knative: 0.14`, `istio: 1.9`, `gatewayApi: 1.5`,
 * `inferenceExtension: 1.5`, `lws: 0.8`, `keda: 2.18`) and, optionally, the exact list
 * of API groups it serves (`apiGroups: [serving.kubeflow.org/v1alpha2, networking.istio.io]`).
 * Read with YAML's failsafe schema so that `0.10` stays "0.10". A bad file is a SnapshotError
 * naming the file and the key.
 */
import { z } from 'zod';
import { SnapshotError } from './snapshot-error.js';
import { parseYamlFile } from './parse-yaml-file.js';

const RELEASE = /^(?:[a-z]+-)?v?\d{1,3}\.\d{1,3}(?:\.\d+)?(?:[-+][0-9A-Za-z.-]*)?$/;
const GROUP_VERSION = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(\/v\d+((alpha|beta)\d+)?)?$/;

const release = z.string().regex(RELEASE, 'expected a release such as 0.11 or 1.9');

const clusterFileSchema = z
  .object({
    kubernetes: release.optional(),
    kserve: release.optional(),
    kfserving: release.optional(),
    knative: release.optional(),
    istio: release.optional(),
    gatewayApi: release.optional(),
    inferenceExtension: release.optional(),
    lws: release.optional(),
    keda: release.optional(),
    apiGroups: z
      .array(
        z
          .string()
          .regex(
            GROUP_VERSION,
            'expected an API group or group/version such as serving.kserve.io or serving.kubeflow.org/v1alpha2',
          ),
      )
      .optional(),
  })
  .strict();

export type ClusterFile = z.infer<typeof clusterFileSchema>;

export const CLUSTER_FILE_KEYS = Object.keys(clusterFileSchema.shape);

export function parseClusterFile(text: string, file: string): ClusterFile {
  const doc = parseYamlFile(text, file, { schema: 'failsafe' })[0];
  if (doc === undefined || doc === null || doc === '') return {};
  const parsed = clusterFileSchema.safeParse(doc);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    throw new SnapshotError(`\`${issue.keys[0]}\`: unknown key (known: ${CLUSTER_FILE_KEYS.join(', ')})`, file);
  }
  const key =
    issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : p))
      .join('.')
      .replace('.[', '[') || '(top level)';
  const got = valueAt(doc, issue.path);
  const message =
    issue.code === 'invalid_type' ? `expected ${expectedValue(issue.path, issue.expected)}` : issue.message;
  throw new SnapshotError(
    `\`${key}\`: ${message}${got !== undefined && typeof got !== 'object' ? ` (got ${JSON.stringify(got)})` : ''}`,
    file,
  );
}

function expectedValue(path: (string | number)[], type: string): string {
  if (type === 'array') return 'a list';
  if (type === 'object') return 'a mapping of keys such as kserve: 0.11';
  return path[0] === 'apiGroups' ? 'an API group or group/version' : 'a release such as 0.11';
}

function valueAt(doc: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined,
    doc,
  );
}
