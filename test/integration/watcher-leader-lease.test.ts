/**
 * LeaseElector against the simulator's Leases (create, PUT with resourceVersion → 409): one leader
 * among candidates, release on stop (the other takes over at once), takeover after a holder stops
 * renewing without releasing (a crashed replica).
 */
import { jest } from '@jest/globals';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { LeaseElector } from '../../src/leader/lease-elector.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from '../support/until.js';

let sim: RunningSimulator;
beforeEach(async () => {
  sim = await startSimulator({ snapshot: { dir: '/nonexistent', objects: [], logs: new Map(), deny: [] } });
});
afterEach(async () => {
  await sim.close();
});

function candidate(identity: string, events: string[]) {
  return new LeaseElector({
    kubeConfig: kubeConfigForServer(sim.url),
    namespace: 'isvc-doctor',
    name: 'watcher',
    identity,
    leaseDurationMs: 1000,
    retryMs: 100,
    onStartedLeading: () => void events.push(`${identity} leads`),
    onStoppedLeading: () => void events.push(`${identity} stops`),
  });
}

const holder = () =>
  (
    sim.store.get('coordination.k8s.io/v1', 'Lease', 'isvc-doctor', 'watcher')?.spec as
      | { holderIdentity?: string }
      | undefined
  )?.holderIdentity;

it('elects one of two candidates, and the other takes over at once when the leader stops', async () => {
  // The clock stands still (only Date is faked; timers and I/O run): no lease can expire, so a
  // takeover can only come from the leader's release, however slowly a loaded machine runs.
  jest.useFakeTimers({
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
  });
  try {
    const events: string[] = [];
    const a = candidate('a', events);
    const b = candidate('b', events);
    a.start();
    b.start();
    await until(() => a.isLeader || b.isLeader, 'a leader');
    await new Promise((r) => setTimeout(r, 500));
    expect([a.isLeader, b.isLeader].filter(Boolean)).toHaveLength(1);
    const [leader, other] = a.isLeader ? [a, b] : [b, a];
    expect(holder()).toBe(a.isLeader ? 'a' : 'b');
    await leader.stop();
    // released: no lease expiry needed (none can happen: the clock does not move)
    await until(() => other.isLeader, 'the takeover');
    expect(events).toHaveLength(3);
    await other.stop();
    expect(holder()).toBe('');
  } finally {
    jest.useRealTimers();
  }
});

it('takes over from a holder that stopped renewing (crashed) once the lease duration has passed', async () => {
  sim.store.upsert({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'watcher', namespace: 'isvc-doctor' },
    spec: {
      holderIdentity: 'crashed',
      leaseDurationSeconds: 1,
      renewTime: new Date().toISOString().replace('Z', '000Z'),
      leaseTransitions: 0,
    },
  });
  const events: string[] = [];
  const b = candidate('b', events);
  const started = Date.now();
  b.start();
  await until(() => b.isLeader, 'the takeover');
  // not before the crashed holder's lease expired (a lower bound: a loaded machine only makes it later)
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(holder()).toBe('b');
  const lease = sim.store.get('coordination.k8s.io/v1', 'Lease', 'isvc-doctor', 'watcher')!;
  expect((lease.spec as { leaseTransitions?: number }).leaseTransitions).toBe(1);
  expect(sim.requests.some((r) => r.verb === 'update' && r.resource === 'leases')).toBe(true);
  await b.stop();
});

it('steps down when another process overwrites the lease', async () => {
  const events: string[] = [];
  const a = candidate('a', events);
  a.start();
  await until(() => a.isLeader, 'leading');
  const lease = sim.store.get('coordination.k8s.io/v1', 'Lease', 'isvc-doctor', 'watcher')!;
  sim.store.upsert({
    ...lease,
    spec: { ...(lease.spec as object), holderIdentity: 'intruder', renewTime: new Date().toISOString() },
  });
  await until(() => !a.isLeader, 'stepping down');
  expect(events).toEqual(['a leads', 'a stops']);
  await a.stop();
});
