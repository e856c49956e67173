import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';

/** Containers injected next to the model server; their failures are symptoms, not causes. */
export const SIDECAR_CONTAINERS = new Set(['queue-proxy', 'istio-proxy', 'linkerd-proxy']);
export const STORAGE_INITIALIZER = 'storage-initializer';

export interface ContainerFailure {
  container: string;
  init: boolean;
  /** CrashLoopBackOff, Error, OOMKilled, ImagePullBackOff, ... */
  reason: string;
  exitCode?: number;
  restarts: number;
  message?: string;
  /** Whether the evidence of the crash is in the previous instance's log. */
  fromPrevious: boolean;
  /** The container's current waiting reason (CrashLoopBackOff while it is backing off). */
  waiting?: string;
  /** The terminated instance's message (the log's tail under terminationMessagePolicy FallbackToLogsOnError). */
  terminationMessage?: string;
}

/** What went wrong with one container, from its current state and the last terminated instance. */
export function containerFailure(status: V1ContainerStatus, init: boolean): ContainerFailure | undefined {
  const waiting = status.state?.waiting;
  const terminated = status.state?.terminated;
  const last = status.lastState?.terminated;
  const restarts = status.restartCount ?? 0;
  if (terminated && (terminated.exitCode ?? 0) !== 0) {
    return {
      container: status.name,
      init,
      reason: terminated.reason ?? 'Error',
      exitCode: terminated.exitCode,
      restarts,
      message: terminated.message,
      fromPrevious: false,
    };
  }
  if (waiting?.reason && waiting.reason !== 'ContainerCreating' && waiting.reason !== 'PodInitializing') {
    return {
      container: status.name,
      init,
      reason: waiting.reason === 'CrashLoopBackOff' && last?.reason === 'OOMKilled' ? 'OOMKilled' : waiting.reason,
      exitCode: last?.exitCode,
      restarts,
      message: waiting.message ?? last?.message,
      // while it backs off, the current log is the instance that just exited (--previous the one before)
      fromPrevious: false,
      waiting: waiting.reason,
    };
  }
  if (last && ((last.exitCode ?? 0) !== 0 || last.reason === 'OOMKilled') && restarts > 0) {
    return {
      container: status.name,
      init,
      reason: last.reason ?? 'Error',
      exitCode: last.exitCode,
      restarts,
      message: last.message,
      fromPrevious: true,
    };
  }
  return undefined;
}

function withTerminationMessage(
  status: V1ContainerStatus,
  failure: ContainerFailure | undefined,
): ContainerFailure | undefined {
  const message = status.state?.terminated?.message ?? status.lastState?.terminated?.message;
  return failure && message ? { ...failure, terminationMessage: message } : failure;
}

export function containerFailures(pod: V1Pod): ContainerFailure[] {
  const init = (pod.status?.initContainerStatuses ?? []).map((s) =>
    withTerminationMessage(s, containerFailure(s, true)),
  );
  const main = (pod.status?.containerStatuses ?? []).map((s) => withTerminationMessage(s, containerFailure(s, false)));
  return [...init, ...main].filter((f): f is ContainerFailure => f !== undefined);
}

/** The STATUS column kubectl prints for a pod (Init:Error, CrashLoopBackOff, Running, ...). */
export function podStatusText(pod: V1Pod): string {
  if (pod.metadata?.deletionTimestamp) return 'Terminating';
  for (const s of pod.status?.initContainerStatuses ?? []) {
    if (s.state?.terminated && (s.state.terminated.exitCode ?? 0) !== 0)
      return `Init:${s.state.terminated.reason ?? 'Error'}`;
    if (s.state?.waiting?.reason && s.state.waiting.reason !== 'PodInitializing')
      return `Init:${s.state.waiting.reason}`;
  }
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.state?.waiting?.reason) return s.state.waiting.reason;
    if (s.state?.terminated?.reason) return s.state.terminated.reason;
  }
  return pod.status?.reason ?? pod.status?.phase ?? 'Unknown';
}

export function isModelContainer(name: string): boolean {
  return !SIDECAR_CONTAINERS.has(name) && name !== STORAGE_INITIALIZER;
}
