/** objects.yaml → the list of Kubernetes objects it holds (`kind: List` documents flattened). */
import { SnapshotError } from './snapshot-error.js';
import { parseYamlFile } from './parse-yaml-file.js';

type KubeObject = Record<string, unknown>;

export function parseObjects(text: string, file: string): KubeObject[] {
  const objects: KubeObject[] = [];
  parseYamlFile(text, file).forEach((doc, index) => {
    if (doc === null || doc === undefined) return;
    if (!isObject(doc)) throw new SnapshotError(`document ${index + 1} is not a Kubernetes object`, file);
    const items = isList(doc) ? (doc.items ?? []) : [doc];
    if (!Array.isArray(items)) throw new SnapshotError(`document ${index + 1}: List items is not a list`, file);
    for (const item of items) {
      if (!isObject(item)) throw new SnapshotError(`document ${index + 1}: a List item is not an object`, file);
      fillFromTypedList(doc, item);
      checkObject(item, file, index);
      objects.push(item);
    }
  });
  return objects;
}

function isList(doc: KubeObject): boolean {
  return typeof doc.kind === 'string' && (doc.kind === 'List' || doc.kind.endsWith('List')) && 'items' in doc;
}

/** Items of a typed list as the API returns it (PodList, EventList, …) carry no apiVersion / kind. */
function fillFromTypedList(list: KubeObject, item: KubeObject): void {
  const kind = typeof list.kind === 'string' && list.kind !== 'List' ? list.kind.replace(/List$/, '') : undefined;
  if (!kind) return;
  if (typeof item.kind !== 'string') item.kind = kind;
  if (typeof item.apiVersion !== 'string' && typeof list.apiVersion === 'string') item.apiVersion = list.apiVersion;
}

function checkObject(item: KubeObject, file: string, index: number): void {
  const metadata = item.metadata as { name?: unknown } | undefined;
  const missing = [
    typeof item.apiVersion !== 'string' && 'apiVersion',
    typeof item.kind !== 'string' && 'kind',
    (!isObject(metadata) || typeof metadata.name !== 'string') && 'metadata.name',
  ].filter(Boolean);
  if (missing.length) throw new SnapshotError(`document ${index + 1}: object without ${missing.join(', ')}`, file);
}

function isObject(value: unknown): value is KubeObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
