/**
 * registerHandlers: the request-context middleware before any listener, then every listener under
 * its id; a URL button (its link opens in the browser) is only acked.
 */
import { describe, expect, it } from '@jest/globals';
import type { App } from '@slack/bolt';
import { registerHandlers } from './index.js';
import {
  APPROVE_ACTION,
  MUTE_HOUR_ACTION,
  OPEN_LINK_ACTION,
  REDIAGNOSE_ACTION,
  REJECT_ACTION,
  ROLLOUT_PROMOTE_ACTION,
  ROLLOUT_ROLLBACK_ACTION,
  ROLLOUT_SPLIT_ACTION,
} from '../src/slack/action-ids.js';
import { handlerFakes } from '../test/support/fake-handler-deps.js';

type Listener = (args: { ack: () => Promise<void> }) => Promise<void>;

function recordingApp() {
  const registered: Array<{ kind: string; id: string | RegExp }> = [];
  const actions: Array<{ id: string | RegExp; listener: Listener }> = [];
  const app = {
    use: () => void registered.push({ kind: 'middleware', id: '' }),
    command: (id: string) => void registered.push({ kind: 'command', id }),
    event: (id: string) => void registered.push({ kind: 'event', id }),
    action: (id: string | RegExp, listener: Listener) => {
      registered.push({ kind: 'action', id });
      actions.push({ id, listener });
    },
  };
  return { app: app as unknown as App, registered, actions };
}

describe('registerHandlers', () => {
  it('installs the request context first, then the /isvc command, the mention and the buttons', () => {
    const { app, registered } = recordingApp();
    registerHandlers(app, handlerFakes().deps);
    expect(registered[0]).toEqual({ kind: 'middleware', id: '' });
    expect(registered.filter((r) => r.kind === 'middleware')).toHaveLength(1);
    expect(registered).toContainEqual({ kind: 'command', id: '/isvc' });
    expect(registered).toContainEqual({ kind: 'event', id: 'app_mention' });
    const ids = registered.filter((r) => r.kind === 'action' && typeof r.id === 'string').map((r) => r.id);
    expect(ids.sort()).toEqual(
      [
        APPROVE_ACTION,
        REJECT_ACTION,
        REDIAGNOSE_ACTION,
        MUTE_HOUR_ACTION,
        ROLLOUT_PROMOTE_ACTION,
        ROLLOUT_ROLLBACK_ACTION,
        ROLLOUT_SPLIT_ACTION,
      ].sort(),
    );
  });

  it('acks a URL button once and does nothing else', async () => {
    const { app, actions } = recordingApp();
    const fakes = handlerFakes();
    registerHandlers(app, fakes.deps);
    const link = actions.find((a) => a.id instanceof RegExp && a.id.test(`${OPEN_LINK_ACTION}.2`));
    expect(link).toBeDefined();
    await link?.listener({ ack: fakes.ack });
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order).toEqual(['ack']);
  });
});
