/**
 * ISVC_NOT_FOUND: no InferenceService of the name in the namespace asked. Its evidence says where
 * the diagnosis looked (the served API versions), the close names there ("did you mean") and the
 * other namespaces that hold the name; a request whose namespace was defaulted follows the only one
 * (`onlyOtherNamespace`).
 */
import { namespaceAllowed, type DiagnosisConfig } from '../config.js';
import type { TargetRef } from '../core/target-ref.js';
import { finding } from '../findings/finding.js';
import { CLOSE_NAMES_PREFIX, OTHER_NAMESPACES_PREFIX } from '../findings/not-found-alternatives.js';
import type { Finding } from '../findings/types.js';
import type { ClusterReader } from '../kube/cluster-reader.js';
import { refOf } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS } from '../kube/resources.js';
import { closeNames } from './close-names.js';

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** ISVC_NOT_FOUND, and the other namespaces that hold the name (what a defaulted namespace may follow). */
export async function notFoundFinding(
  reader: ClusterReader,
  target: TargetRef,
): Promise<{ finding: Finding; otherNamespaces: string[] }> {
  const [names, elsewhere] = await Promise.all([
    reader.inferenceServiceNames(target.namespace).catch(() => [] as string[]),
    reader.inferenceServiceNamespaces(target.name).catch(() => [] as string[]),
  ]);
  const otherNamespaces = elsewhere.filter((ns) => ns !== target.namespace);
  const close = closeNames(target.name, names);
  const versions = await reader.inferenceServiceVersions().catch(() => [...INFERENCE_SERVICE_VERSIONS]);
  const groups = versions.map((r) => `${r.group}/${r.version}`).join(', ');
  const notFound = finding('ISVC_NOT_FOUND', {
    subject: refOf('InferenceService', target.namespace, target.name),
    title: `No InferenceService "${target.name}" in namespace ${target.namespace}${
      otherNamespaces.length
        ? ` (it is in ${plural(otherNamespaces.length, 'namespace', 'namespaces')} ${otherNamespaces.slice(0, 5).join(', ')})`
        : close.length
          ? ` (did you mean ${close.join(', ')}?)`
          : ''
    }`,
    evidence: [
      {
        kind: 'field',
        ref: `Namespace ${target.namespace}`,
        text: `searched namespace ${target.namespace} under ${groups}`,
      },
      {
        kind: 'note',
        ref: `Namespace ${target.namespace}`,
        text: `${versions[0] ? `${versions[0].plural}.${versions[0].group}` : 'inferenceservices'} "${target.name}" not found`,
      },
      {
        kind: 'field',
        ref: `Namespace ${target.namespace}`,
        text: close.length
          ? `${CLOSE_NAMES_PREFIX}${close.join(', ')}`
          : `InferenceServices there: ${names.slice(0, 20).join(', ') || 'none'}`,
      },
      ...(otherNamespaces.length
        ? [
            {
              kind: 'field' as const,
              ref: `InferenceService ${target.name}`,
              text: `${OTHER_NAMESPACES_PREFIX}${otherNamespaces.slice(0, 20).join(', ')}`,
            },
          ]
        : []),
    ],
  });
  return { finding: notFound, otherNamespaces };
}

/** The one other namespace that holds the name, when the bot may read it. */
export function onlyOtherNamespace(otherNamespaces: readonly string[], config: DiagnosisConfig): string | undefined {
  const only = otherNamespaces.length === 1 ? otherNamespaces[0] : undefined;
  return only && namespaceAllowed(config, only) ? only : undefined;
}
