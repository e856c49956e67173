/**
 * Rendered deploy/ manifests: `kubectl kustomize DIR` (kubectl's built-in kustomize, any kubectl
 * from 1.20 on) parsed into objects, and lookups the deploy and RBAC tests share (the bot's
 * Deployment, its config file from the generated ConfigMap, the service account).
 */
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/** Parses multi-document YAML (as kubectl prints it) into objects; empty documents are skipped. */
export function parseManifests(text: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new RenderError(`invalid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const o = value as Partial<ManifestObject>;
    if (typeof o.kind !== 'string' || typeof o.apiVersion !== 'string' || typeof o.metadata?.name !== 'string')
      throw new RenderError('a document without apiVersion, kind or metadata.name');
    out.push(o as ManifestObject);
  }
  return out;
}

/** Runs `kubectl kustomize DIR`; stderr (deprecation notes of newer kustomize versions) is returned apart. */
export function renderKustomization(
  dir: string,
  kubectl = process.env.KUBECTL ?? 'kubectl',
): { objects: ManifestObject[]; text: string; warnings: string } {
  const run = spawnSync(kubectl, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.error) throw new RenderError(`cannot run ${kubectl}: ${run.error.message}`);
  if (run.status !== 0)
    throw new RenderError(`${kubectl} kustomize ${dir} failed: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { objects: parseManifests(run.stdout), text: run.stdout, warnings: run.stderr };
}

export function findObject(
  objects: ManifestObject[],
  kind: string,
  name: string,
  namespace?: string,
): ManifestObject | undefined {
  return objects.find(
    (o) =>
      o.kind === kind && o.metadata.name === name && (namespace === undefined || o.metadata.namespace === namespace),
  );
}

/** The bot's config file as the generated ConfigMap carries it (`config.yaml`). */
export function configFileOf(objects: ManifestObject[]): string {
  const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('isvc-doctor-config'));
  const text = (cm?.data as Record<string, string> | undefined)?.['config.yaml'];
  if (!cm || typeof text !== 'string') throw new RenderError('no isvc-doctor-config ConfigMap with config.yaml');
  return text;
}
