/**
 * `remediation.reject`: acked first; the click is handed over as a reject (to a cluster's agent in a
 * multi-cluster web process), never as an approve; with remediations off the clicker is told so ephemerally.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { Click } from '../../src/remediation/decide-proposal.js';
import { buttonClick, type HandlerFakes, handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';
import { remediationReject } from './remediation-reject.js';

async function click(fakes: HandlerFakes) {
  const listener = remediationReject(fakes.deps);
  await listener(
    listenerArgs(listener, { ...buttonClick('remediation.reject', 'rp-0123456789abcdef'), ack: fakes.ack }),
  );
  await fakes.settled();
}

describe('remediation.reject listener', () => {
  it('acks once, first, then hands the click over as a reject', async () => {
    const fakes = handlerFakes({
      clicks: jest.fn(async (_decision: 'approve' | 'reject', _click: Click) => void fakes.order.push('clicks')),
    });
    await click(fakes);
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order).toEqual(['ack', 'afterAck', 'clicks']);
    expect(fakes.deps.clicks).toHaveBeenCalledWith('reject', {
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
