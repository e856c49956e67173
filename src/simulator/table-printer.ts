/**
 * Answers `Accept: application/json;as=Table;g=meta.k8s.io;v=v1` (what `kubectl get` asks for)
 * with a meta.k8s.io/v1 Table: column definitions and one row per object, each row carrying
 * PartialObjectMetadata (default), the full object (includeObject=Object) or nothing (None).
 */
import type { KubeObject } from './kube-object.js';
import type { ResourceType } from './resource-registry.js';
import { columnsFor } from './table-columns.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** Whether an Accept header asks for a meta.k8s.io Table. */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.some((p) => p === 'g=meta.k8s.io');
  });
}

export function parseIncludeObject(value: string | null): IncludeObject {
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

/** The list metadata a Table carries: a paged list's continue token and remaining count too. */
export interface TableListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export function toTable(
  type: ResourceType,
  objects: KubeObject[],
  options: TableListMeta & { includeObject: IncludeObject; now?: number },
): Record<string, unknown> {
  const now = options.now ?? Date.now();
  const columns = columnsFor(type);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: options.resourceVersion,
      ...(options.continue ? { continue: options.continue } : {}),
      ...(options.remainingItemCount !== undefined ? { remainingItemCount: options.remainingItemCount } : {}),
    },
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description,
      priority: c.priority ?? 0,
    })),
    rows: objects.map((object) => ({
      cells: columns.map((c) => c.cell(object, now)),
      ...rowObject(object, options.includeObject),
    })),
  };
}

function rowObject(object: KubeObject, include: IncludeObject): { object?: Record<string, unknown> } {
  if (include === 'None') return {};
  if (include === 'Object') return { object };
  return { object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata } };
}
