/**
 * `remediation.approve`: acked first; the click is handed over as an approve (to a cluster's agent in a
 * multi-cluster web process), never as a reject; with remediations off the clicker is told so ephemerally.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { Click } from '../../src/remediation/decide-proposal.js';
import { buttonClick, type HandlerFakes, handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';
import { remediationApprove } from './remediation-approve.js';

async function click(fakes: HandlerFakes) {
  const listener = remediationApprove(fakes.deps);
  await listener(
    listenerArgs(listener, { ...buttonClick('remediation.approve', 'rp-0123456789abcdef'), ack: fakes.ack }),
  );
  await fakes.settled();
}

describe('remediation.approve listener', () => {
  it('acks once, first, then hands the click over as an approve', async () => {
    const fakes = handlerFakes({
      clicks: jest.fn(async (_decision: 'approve' | 'reject', _click: Click) => void fakes.order.push('clicks')),
    });
    await click(fakes);
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order).toEqual(['ack', 'afterAck', 'clicks']);
    expect(fakes.deps.clicks).toHaveBeenCalledWith('approve', {
      proposalId: 'rp-0123456789abcdef',
      user: 'U2',
      channel: 'C1',
      messageTs: '1700000100.000200',
      requestId: 'r-0123456789ab',
    });
  });

  it('with remediations off, tells the clicker so ephemerally, never a throw', async () => {
    const fakes = handlerFakes();
    await click(fakes);
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.ephemerals).toEqual([expect.objectContaining({ channel: 'C1', user: 'U2' })]);
    expect(fakes.ephemerals[0]?.message.text).toContain('REMEDIATION_DISABLED');
  });
});
