/**
 * What the kubelet always writes in a Pod's status and a snapshot may leave out, derived from what
 * the snapshot does say, so that a healthy pod never reads as unready because a list is absent:
 * each container status's ready / started / restartCount / image, the phase, and the conditions
 * Initialized, Ready, ContainersReady and PodScheduled (only the missing ones; never contradicting
 * a condition the snapshot gives). A pod with no container status at all is left as it is.
 */
import { isPlainObject, type KubeObject } from './kube-object.js';

type Json = Record<string, unknown>;
interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  image?: string;
  state?: { running?: Json; waiting?: { reason?: string }; terminated?: { exitCode?: number } };
  lastState?: { terminated?: Json };
}
interface PodCondition {
  type: string;
  status: 'True' | 'False';
  reason?: string;
  message?: string;
  lastProbeTime: null;
  lastTransitionTime?: string;
}

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value.filter(isPlainObject) as T[]) : []);

export function completePodStatus(pod: KubeObject): KubeObject {
  if (pod.kind !== 'Pod' || !isPlainObject(pod.status)) return pod;
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const status = { ...pod.status };
  const images = new Map(
    list<Json>(spec.containers)
      .concat(list<Json>(spec.initContainers))
      .map((c) => [String(c.name), c.image]),
  );
  const main = list<ContainerStatus>(status.containerStatuses).map((c) => completeContainer(c, images));
  const init = list<ContainerStatus>(status.initContainerStatuses).map((c) => completeContainer(c, images));
  if (main.length === 0 && init.length === 0) return pod;
  if (Array.isArray(status.containerStatuses)) status.containerStatuses = main;
  if (Array.isArray(status.initContainerStatuses)) status.initContainerStatuses = init;
  status.phase ??= phaseOf(main, init, String(spec.restartPolicy ?? 'Always'));
  const since =
    typeof status.startTime === 'string'
      ? status.startTime
      : (pod.metadata as { creationTimestamp?: string } | undefined)?.creationTimestamp;
  const given = list<PodCondition>(status.conditions);
  const derived = derivedConditions(spec, status.phase as string, main, init, since).filter(
    (c) => !given.some((g) => g.type === c.type),
  );
  if (derived.length) status.conditions = [...given, ...derived];
  return { ...pod, status };
}

function completeContainer(c: ContainerStatus, images: Map<string, unknown>): ContainerStatus {
  const running = isPlainObject(c.state?.running);
  const image = images.get(String(c.name));
  return {
    ...c,
    ready: c.ready ?? running,
    started: c.started ?? running,
    restartCount: c.restartCount ?? 0,
    ...(c.image === undefined && typeof image === 'string' ? { image } : {}),
  };
}

/** The kubelet's getPhase: a container waiting that never ran keeps the pod Pending. */
function phaseOf(main: ContainerStatus[], init: ContainerStatus[], restartPolicy: string): string {
  if (init.some((c) => !(c.state?.terminated && (c.state.terminated.exitCode ?? 0) === 0))) return 'Pending';
  const neverRan = main.filter((c) => c.state?.waiting && !c.lastState?.terminated).length;
  const running = main.filter((c) => c.state?.running).length;
  const stopped = main.filter((c) => c.state?.terminated || (c.state?.waiting && c.lastState?.terminated)).length;
  if (neverRan > 0) return 'Pending';
  if (running > 0 || restartPolicy === 'Always') return 'Running';
  const failed = main.some((c) => (c.state?.terminated?.exitCode ?? 0) !== 0);
  return stopped > 0 && failed ? 'Failed' : 'Succeeded';
}

function derivedConditions(
  spec: Json,
  phase: string,
  main: ContainerStatus[],
  init: ContainerStatus[],
  since: string | undefined,
): PodCondition[] {
  const condition = (type: string, ok: boolean, reason?: string, message?: string): PodCondition => ({
    type,
    status: ok ? 'True' : 'False',
    ...(ok ? {} : { reason, message }),
    lastProbeTime: null,
    ...(since ? { lastTransitionTime: since } : {}),
  });
  const incomplete = init
    .filter((c) => !(c.state?.terminated && (c.state.terminated.exitCode ?? 0) === 0))
    .map((c) => c.name);
  const specNames = list<Json>(spec.containers).map((c) => String(c.name));
  const names = specNames.length ? specNames : main.map((c) => String(c.name));
  const unready = names.filter((n) => !main.some((c) => c.name === n && c.ready));
  const completed = phase === 'Succeeded' || phase === 'Failed';
  const readyReason = completed ? 'PodCompleted' : 'ContainersNotReady';
  const readyMessage = completed ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  return [
    condition(
      'Initialized',
      incomplete.length === 0,
      'ContainersNotInitialized',
      `containers with incomplete status: [${incomplete.join(' ')}]`,
    ),
    condition('Ready', !completed && unready.length === 0, readyReason, readyMessage),
    condition('ContainersReady', !completed && unready.length === 0, readyReason, readyMessage),
    condition('PodScheduled', true),
  ];
}
