/**
 * Buttons that run a command for the clicker: acked first, the command built from the button's
 * value runs in the clicked message's thread for the clicker; a value that is not a target is refused
 * (logged, nothing run, never a throw).
 */
import { describe, expect, it } from '@jest/globals';
import { commandButton } from './command-button.js';
import { buttonClick, handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';

/** A block_actions payload for a button (or a select) on a message in a thread. */
function click(value: string, select = false) {
  const button = buttonClick('test.status', value);
  const action = select
    ? {
        type: 'static_select',
        action_id: 'test.status',
        block_id: 'b1',
        selected_option: { text: { type: 'plain_text', text: value }, value },
        action_ts: '1700000200.000300',
      }
    : button.action;
  const message = { ...button.body.message, thread_ts: '1700000000.000100', text: 'verdict' };
  return { action, body: { ...button.body, message, actions: [action] } };
}

async function run(value: string, select = false) {
  const fakes = handlerFakes();
  // the button's value is `namespace/name`; a status of that namespace is what this button runs
  const listener = commandButton(fakes.deps, (target) => `status -n ${target.split('/')[0]}`);
  const { action, body } = click(value, select);
  await listener(
    listenerArgs(listener, { ack: fakes.ack, action, body, payload: action, context: { requestId: 'r-0123456789ab' } }),
  );
  await fakes.settled();
  return fakes;
}

describe('command button listener', () => {
  it('acks once, first, then runs the command from its value for the clicker in the thread', async () => {
    const fakes = await run('kserve-test/sklearn-iris');
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order.slice(0, 2)).toEqual(['ack', 'afterAck']);
    expect(fakes.added).toEqual([
      {
        kind: 'status',
        namespace: 'kserve-test',
        channel: 'C1',
        user: 'U2',
        threadTs: '1700000000.000100',
        requestId: 'r-0123456789ab',
      },
    ]);
    // only the clicker sees "at work", where the clicked message is
    expect(fakes.ephemerals).toEqual([
      expect.objectContaining({ channel: 'C1', user: 'U2', threadTs: '1700000000.000100' }),
    ]);
  });

  it('takes the value of a select from its selected option', async () => {
    const fakes = await run('ml-team/fraud-model 90/10', true);
    expect(fakes.added).toEqual([expect.objectContaining({ kind: 'status', namespace: 'ml-team', user: 'U2' })]);
  });

  it.each([['status -A'], ['kserve-test/sklearn-iris --cluster other'], ['']])(
    'refuses a value that is not a target (%p): acked, logged, nothing run',
    async (value) => {
      const fakes = await run(value);
      expect(fakes.ack).toHaveBeenCalledTimes(1);
      expect(fakes.order).toEqual(['ack']);
      expect(fakes.added).toEqual([]);
      expect(fakes.logged).toEqual([{ level: 'warn', message: expect.stringContaining('value refused') }]);
    },
  );
});
