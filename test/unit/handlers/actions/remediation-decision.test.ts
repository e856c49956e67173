/**
 * `remediation.approve` and `remediation.reject`: acked first; the click is decided as an approve or a
 * reject (handed so to a cluster's agent in a multi-cluster web process); with remediations off the
 * clicker is told so ephemerally.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { remediationApprove } from '../../../../handlers/actions/remediation-approve.js';
import { remediationReject } from '../../../../handlers/actions/remediation-reject.js';
import type { Click } from '../../../../src/remediation/decide-proposal.js';
import { buttonClick, type HandlerFakes, handlerFakes, listenerArgs } from '../fake-handler-deps.js';

const LISTENERS = [
  ['approve', remediationApprove],
  ['reject', remediationReject],
] as const;

describe.each(LISTENERS)('remediation.%s listener', (decision, makeListener) => {
  async function click(fakes: HandlerFakes) {
    const listener = makeListener(fakes.deps);
    await listener(
      listenerArgs(listener, { ...buttonClick(`remediation.${decision}`, 'rp-0123456789abcdef'), ack: fakes.ack }),
    );
    await fakes.settled();
  }

  it(`acks once, first, then hands the click over as ${decision === 'approve' ? 'an approve' : 'a reject'}`, async () => {
    const fakes = handlerFakes({
      clicks: jest.fn(async (_decision: 'approve' | 'reject', _click: Click) => void fakes.order.push('clicks')),
    });
    await click(fakes);
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order).toEqual(['ack', 'afterAck', 'clicks']);
    expect(fakes.deps.clicks).toHaveBeenCalledWith(decision, {
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
