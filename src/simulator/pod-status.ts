/**
 * The READY, STATUS and RESTARTS columns of `kubectl get pods`, computed as kubectl's pod
 * printer does: Init:Error, Init:CrashLoopBackOff, Init:0/1, CrashLoopBackOff, Completed,
 * Running, Pending, Terminating…
 */
interface ContainerState {
  waiting?: { reason?: string };
  running?: Record<string, unknown>;
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}
interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  state?: ContainerState;
}
interface PodLike {
  metadata?: { deletionTimestamp?: string };
  spec?: { containers?: unknown[]; initContainers?: { restartPolicy?: string }[] };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: { type?: string; status?: string }[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

export interface PodSummary {
  ready: string;
  status: string;
  restarts: number;
}

function terminatedReason(t: NonNullable<ContainerState['terminated']>, prefix: string): string {
  if (t.reason) return `${prefix}${t.reason}`;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
}

function hasCondition(pod: PodLike, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

export function summarizePod(object: object): PodSummary {
  const pod = object as PodLike;
  const status = pod.status ?? {};
  const initSpecs = pod.spec?.initContainers ?? [];
  let reason = status.reason || status.phase || '';
  let restarts = 0;
  let initializing = false;

  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount ?? 0;
    const state = c.state ?? {};
    if (state.terminated && (state.terminated.exitCode ?? 0) === 0) continue;
    if (initSpecs[i]?.restartPolicy === 'Always' && c.started) continue;
    if (state.terminated) reason = terminatedReason(state.terminated, 'Init:');
    else if (state.waiting?.reason && state.waiting.reason !== 'PodInitializing')
      reason = `Init:${state.waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length || initStatuses.length}`;
    initializing = true;
    break;
  }

  let readyContainers = 0;
  if (!initializing || hasCondition(pod, 'Initialized')) {
    restarts = 0;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      const state = c.state ?? {};
      restarts += c.restartCount ?? 0;
      if (state.waiting?.reason) reason = state.waiting.reason;
      else if (state.terminated) reason = terminatedReason(state.terminated, '');
      else if (c.ready && state.running) {
        hasRunning = true;
        readyContainers += 1;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  }
  if (pod.metadata?.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';

  const total = pod.spec?.containers?.length ?? 0;
  return { ready: `${readyContainers}/${total}`, status: reason, restarts };
}
