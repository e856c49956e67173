/**
 * GET …/pods/NAME/log: picks the container as kube does (the only one, the
 * `kubectl.kubernetes.io/default-container` annotation, or a 400 listing the choices), reads the
 * snapshot's current or previous log, then applies tailLines and limitBytes.
 */
import { badRequest } from './api-error.js';
import type { KubeObject } from './kube-object.js';

export interface LogQuery {
  container?: string;
  previous: boolean;
  tailLines?: number;
  limitBytes?: number;
}

export const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

function containerNames(pod: KubeObject, field: 'containers' | 'initContainers' | 'ephemeralContainers'): string[] {
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const list = Array.isArray(spec[field]) ? (spec[field] as { name?: unknown }[]) : [];
  return list.map((c) => c?.name).filter((n): n is string => typeof n === 'string');
}

export function chooseContainer(pod: KubeObject, requested: string | undefined): string {
  const name = pod.metadata.name;
  const containers = containerNames(pod, 'containers');
  const initContainers = containerNames(pod, 'initContainers');
  const all = [...containers, ...initContainers, ...containerNames(pod, 'ephemeralContainers')];
  if (requested) {
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const annotated = pod.metadata.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
  if (annotated && all.includes(annotated)) return annotated;
  if (containers.length === 1) return containers[0]!;
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  if (initContainers.length) message += ` or one of the init containers: [${initContainers.join(' ')}]`;
  throw badRequest(message);
}

export function parseLogQuery(query: URLSearchParams): LogQuery {
  const container = query.get('container') ?? undefined;
  return {
    ...(container ? { container } : {}),
    previous: query.get('previous') === 'true' || query.get('previous') === '1',
    ...optionalCount(query, 'tailLines'),
    ...optionalCount(query, 'limitBytes'),
  };
}

function optionalCount(query: URLSearchParams, key: 'tailLines' | 'limitBytes'): Partial<Record<typeof key, number>> {
  const raw = query.get(key);
  if (raw === null || raw === '') return {};
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || (key === 'limitBytes' && value === 0)) {
    throw badRequest(`invalid value for ${key}: "${raw}"`);
  }
  return { [key]: value };
}

/** The log text to answer with, from the snapshot's logs map. */
export function readPodLog(pod: KubeObject, logs: ReadonlyMap<string, string>, query: LogQuery): string {
  const container = chooseContainer(pod, query.container);
  const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name}/${container}`;
  let text: string;
  if (query.previous) {
    const previous = logs.get(`${key}#previous`);
    if (previous === undefined)
      throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
    text = previous;
  } else {
    text = logs.get(key) ?? '';
  }
  if (query.tailLines !== undefined) text = tailLines(text, query.tailLines);
  if (query.limitBytes !== undefined) text = Buffer.from(text, 'utf8').subarray(0, query.limitBytes).toString('utf8');
  return text;
}

export function tailLines(text: string, count: number): string {
  if (count === 0) return '';
  const lines = text.split('\n');
  const endsWithNewline = lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const kept = lines.slice(-count).join('\n');
  return endsWithNewline && kept.length ? `${kept}\n` : kept;
}
