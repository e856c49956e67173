/**
 * What the two proposal buttons' listeners (`remediation.approve`, `remediation.reject`) must both
 * do, each with its own decision: ack once and first, then hand the click over as that decision and
 * never the other; with remediations off, tell the clicker so ephemerally, never a throw.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { HandlerDeps } from '../../handlers/handler-deps.js';
import type { Click } from '../../src/remediation/decide-proposal.js';
import { buttonClick, type HandlerFakes, handlerFakes, listenerArgs } from './fake-handler-deps.js';

type Listener = (args: never) => Promise<void>;

export function describeProposalClickListener(
  decision: 'approve' | 'reject',
  makeListener: (deps: HandlerDeps) => Listener,
): void {
  const actionId = `remediation.${decision}`;
  async function click(fakes: HandlerFakes) {
    const listener = makeListener(fakes.deps);
    await listener(listenerArgs(listener, { ...buttonClick(actionId, 'rp-0123456789abcdef'), ack: fakes.ack }));
    await fakes.settled();
  }

  describe(`${actionId} listener`, () => {
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
}
