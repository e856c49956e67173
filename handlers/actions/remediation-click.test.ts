/**
 * The Approve / Reject listener: acked first, then the opaque proposal id and who clicked where go to
 * the click handler after the ack; whatever goes wrong is answered ephemerally to the clicker, never
 * thrown.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { type ClickHandler, remediationClick } from './remediation-click.js';
import { CodedError } from '../../src/core/coded-error.js';
import type { Click, ClickResult } from '../../src/remediation/decide-proposal.js';
import type { RemediationDeps } from '../../src/remediation/remediation-deps.js';
import { buttonClick, type HandlerFakes, handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';

// handed to the click handler unread by the listener
const remediation = {} as RemediationDeps;

async function click(fakes: HandlerFakes, handle: ClickHandler, value: unknown, user: string | null = 'U2') {
  const listener = remediationClick(fakes.deps, handle, 'remediation.approve');
  await listener(listenerArgs(listener, { ...buttonClick('remediation.approve', value, user), ack: fakes.ack }));
  await fakes.settled();
}

function recordingHandle(fakes: HandlerFakes, result: () => Promise<ClickResult>) {
  return jest.fn(async (_deps: RemediationDeps, _click: Click) => {
    fakes.order.push('handle');
    return result();
  });
}

describe('remediation click listener', () => {
  it('acks once, first, then hands the proposal id and who clicked where to the click handler', async () => {
    const fakes = handlerFakes({ remediation });
    const handle = recordingHandle(fakes, async () => ({ kind: 'queued' }));
    await click(fakes, handle, 'rp-0123456789abcdef');
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order).toEqual(['ack', 'afterAck', 'handle']);
    expect(handle).toHaveBeenCalledWith(remediation, {
      proposalId: 'rp-0123456789abcdef',
      user: 'U2',
      channel: 'C1',
      messageTs: '1700000100.000200',
      requestId: 'r-0123456789ab',
    });
    expect(fakes.ephemerals).toEqual([]);
  });

  it('answers a handler failure ephemerally to the clicker with its code, never a throw', async () => {
    const fakes = handlerFakes({ remediation });
    const handle = recordingHandle(fakes, async () => {
      throw new CodedError('QUEUE_UNAVAILABLE', 'redis is down');
    });
    await click(fakes, handle, 'rp-0123456789abcdef');
    expect(fakes.ephemerals).toEqual([expect.objectContaining({ channel: 'C1', user: 'U2' })]);
    expect(fakes.ephemerals[0]?.message.text).toContain('QUEUE_UNAVAILABLE');
  });

  it('keeps a value too long for a proposal id cut, so it matches none', async () => {
    const fakes = handlerFakes({ remediation });
    const handle = recordingHandle(fakes, async () => ({ kind: 'refused', code: 'PROPOSAL_NOT_FOUND' }));
    await click(fakes, handle, 'x'.repeat(5000));
    expect(handle.mock.calls[0]?.[1].proposalId).toBe(`${'x'.repeat(64)}…`);
  });

  it('acks a malformed payload (no user) and does nothing else', async () => {
    const fakes = handlerFakes({ remediation });
    const handle = recordingHandle(fakes, async () => ({ kind: 'queued' }));
    await click(fakes, handle, 'rp-0123456789abcdef', null);
    expect(fakes.order).toEqual(['ack']);
  });

  it('with remediations off, tells the clicker so ephemerally', async () => {
    const fakes = handlerFakes();
    const handle = recordingHandle(fakes, async () => ({ kind: 'queued' }));
    await click(fakes, handle, 'rp-0123456789abcdef');
    expect(handle).not.toHaveBeenCalled();
    expect(fakes.ephemerals).toHaveLength(1);
    expect(fakes.ephemerals[0]?.message.text).toContain('REMEDIATION_DISABLED');
  });

  it('answers a click its cluster could not be handed ephemerally, never a throw', async () => {
    const fakes = handlerFakes({
      clicks: async () => {
        throw new CodedError('NO_AGENT', 'cluster prod-eu has no live agent');
      },
    });
    const handle = recordingHandle(fakes, async () => ({ kind: 'queued' }));
    await click(fakes, handle, 'rp-0123456789abcdef');
    expect(handle).not.toHaveBeenCalled();
    expect(fakes.ephemerals).toHaveLength(1);
    expect(fakes.ephemerals[0]?.message.text).toContain('NO_AGENT');
  });
});
