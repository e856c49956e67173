import { humanDuration } from '../../../src/simulator/human-duration.js';
import { summarizePod } from '../../../src/simulator/pod-status.js';

const running = { running: { startedAt: '2024-01-01T00:00:00Z' } };

describe('kubectl pod STATUS column', () => {
  it('shows a failed init container as Init:Error and counts its restarts', () => {
    const pod = {
      spec: { initContainers: [{ name: 'storage-initializer' }], containers: [{ name: 'kserve-container' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [{ restartCount: 2, state: { terminated: { exitCode: 1, reason: 'Error' } } }],
        containerStatuses: [{ restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
      },
    };
    expect(summarizePod(pod)).toEqual({ ready: '0/1', status: 'Init:Error', restarts: 2 });
  });

  it('shows Init:CrashLoopBackOff, Init:ExitCode and Init:N/M', () => {
    const base = { spec: { initContainers: [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'c' }] } };
    const withInit = (statuses: unknown[]) => ({
      ...base,
      status: { phase: 'Pending', initContainerStatuses: statuses },
    });
    expect(summarizePod(withInit([{ state: { waiting: { reason: 'CrashLoopBackOff' } } }])).status).toBe(
      'Init:CrashLoopBackOff',
    );
    expect(summarizePod(withInit([{ state: { terminated: { exitCode: 2 } } }])).status).toBe('Init:ExitCode:2');
    expect(summarizePod(withInit([{ state: { terminated: { exitCode: 0 } } }, { state: running }])).status).toBe(
      'Init:1/2',
    );
  });

  it('shows CrashLoopBackOff, OOMKilled, Running and Pending', () => {
    const pod = (containerStatuses: unknown[], phase = 'Running') => ({
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: { phase, containerStatuses },
    });
    expect(
      summarizePod(
        pod([
          { ready: true, state: running },
          { restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ]),
      ),
    ).toEqual({
      ready: '1/2',
      status: 'CrashLoopBackOff',
      restarts: 5,
    });
    expect(
      summarizePod(
        pod([{ state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } }, { ready: true, state: running }]),
      ).status,
    ).toBe('OOMKilled');
    expect(
      summarizePod(
        pod([
          { ready: true, state: running },
          { ready: true, state: running },
        ]),
      ),
    ).toEqual({ ready: '2/2', status: 'Running', restarts: 0 });
    expect(summarizePod({ spec: { containers: [{ name: 'a' }] }, status: { phase: 'Pending' } }).status).toBe(
      'Pending',
    );
    expect(
      summarizePod({ metadata: { deletionTimestamp: 'x' }, spec: { containers: [] }, status: { phase: 'Running' } })
        .status,
    ).toBe('Terminating');
  });
});

describe('humanDuration', () => {
  it.each([
    [5_000, '5s'],
    [119_000, '119s'],
    [200_000, '3m20s'],
    [45 * 60_000, '45m'],
    [5 * 3600_000 + 10 * 60_000, '5h10m'],
    [30 * 3600_000, '30h'],
    [3 * 86400_000 + 2 * 3600_000, '3d2h'],
    [100 * 86400_000, '100d'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
