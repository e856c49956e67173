/**
 * UnreadyTracker with an in-memory store and job sink: the open job waits unreadyAfter, flapping
 * posts nothing, the clock survives a restart (marks in the store), recovery of a member queues a
 * recover job, a changed Ready reason while in an incident queues a re-diagnosis, reconcile closes
 * what recovered or vanished while no watcher ran.
 */
import { afterEach, beforeEach, jest } from '@jest/globals';
import { UnreadyTracker } from '../../../src/watcher/unready-tracker.js';
import type { IsvcState } from '../../../src/watcher/isvc-state.js';

function memoryStore() {
  const unready = new Map<string, number>();
  const members = new Map<string, string>();
  return {
    unready,
    members,
    markUnready: async (key: string, now: number) => {
      if (!unready.has(key)) unready.set(key, now);
      return unready.get(key)!;
    },
    markReady: async (key: string) => {
      unready.delete(key);
      return members.get(key) ?? null;
    },
    unreadyAll: async () => new Map(unready),
    membersAll: async () => new Map(members),
  };
}

const state = (name: string, ready: boolean, extra: Partial<IsvcState> = {}): IsvcState => ({
  key: `default/${name}`,
  namespace: 'default',
  name,
  apiVersion: 'serving.kserve.io/v1beta1',
  ready,
  reason: ready ? '' : 'RevisionMissing',
  message: '',
  transitionAt: null,
  generation: 1,
  ...extra,
});

// A fake clock (Date and timers): the waits below are exact however loaded the machine is
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});
const sleep = (ms: number) => jest.advanceTimersByTimeAsync(ms);

function setup(store = memoryStore(), unreadyAfterMs = 100) {
  const jobs: string[] = [];
  const tracker = new UnreadyTracker({
    store,
    jobs: {
      open: async (t) => void jobs.push(`open ${t.namespace}/${t.name}`),
      recover: async (t, by) => void jobs.push(`recover ${t.namespace}/${t.name} ${by}`),
    },
    unreadyAfterMs,
    watched: (ns) => ns === 'default',
  });
  return { tracker, jobs, store };
}

it('queues the open job once the service has been unready for unreadyAfter, not before', async () => {
  const { tracker, jobs } = setup();
  tracker.onChange(state('a', false), null);
  await sleep(40);
  expect(jobs).toEqual([]);
  await sleep(150);
  expect(jobs).toEqual(['open default/a']);
  tracker.stop();
});

it('posts nothing for a flap shorter than unreadyAfter', async () => {
  const { tracker, jobs, store } = setup();
  tracker.onChange(state('a', false), null);
  await sleep(30);
  tracker.onChange(state('a', true), state('a', false));
  await sleep(150);
  expect(jobs).toEqual([]);
  expect(store.unready.size).toBe(0);
  tracker.stop();
});

it('counts from the earlier of lastTransitionTime and the mark kept by a previous leader', async () => {
  const store = memoryStore();
  store.unready.set('default/a', Date.now() - 10_000);
  const { tracker, jobs } = setup(store, 5000);
  await tracker.load();
  tracker.onChange(state('a', false), null);
  tracker.onChange(state('b', false, { transitionAt: Date.now() - 60_000 }), null);
  await sleep(50);
  expect(jobs.sort()).toEqual(['open default/a', 'open default/b']);
  tracker.stop();
});

it('queues recover for a member that becomes Ready or is deleted, and a re-diagnosis when its reason changes', async () => {
  const store = memoryStore();
  const { tracker, jobs } = setup(store, 10);
  tracker.onChange(state('a', false), null);
  tracker.onChange(state('b', false), null);
  await sleep(60);
  store.members.set('default/a', 'inc-1');
  store.members.set('default/b', 'inc-1');
  tracker.onChange(state('a', false, { reason: 'OOM' }), state('a', false));
  tracker.onChange(state('a', true), state('a', false, { reason: 'OOM' }));
  tracker.onDelete(state('b', false));
  await tracker.idle();
  expect(jobs.slice(0, 2).sort()).toEqual(['open default/a', 'open default/b']);
  expect(jobs.slice(2).sort()).toEqual(['open default/a', 'recover default/a ready', 'recover default/b deleted']);
  tracker.stop();
});

it('reconciles after a restart: members that recovered or vanished get recover jobs, the others nothing', async () => {
  const store = memoryStore();
  store.unready.set('default/a', 1).set('default/b', 1).set('default/c', 1);
  store.members.set('default/a', 'inc-1').set('default/b', 'inc-1').set('default/c', 'inc-1');
  const { tracker, jobs } = setup(store, 10);
  await tracker.load();
  const current = new Map([
    ['default/a', state('a', true)],
    ['default/c', state('c', false)],
  ]);
  for (const s of current.values()) tracker.onChange(s, null);
  await tracker.reconcile((k) => current.get(k));
  await tracker.idle();
  expect(jobs.sort()).toEqual(['recover default/a ready', 'recover default/b deleted']);
  tracker.stop();
});

it('ignores namespaces without an alerts channel', async () => {
  const { tracker, jobs } = setup(memoryStore(), 1);
  tracker.onChange({ ...state('a', false), namespace: 'other', key: 'other/a' }, null);
  await sleep(30);
  expect(jobs).toEqual([]);
  tracker.stop();
});
