/**
 * `/isvc …`: acked before anything else, then the command's text runs with who asked where (and the
 * request id); what only the asker sees goes to response_url as an ephemeral answer.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { RespondError, type RespondArguments } from '@slack/bolt';
import { isvcCommand } from './isvc-command.js';
import { handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';

/** A slash command's payload as Slack sends it. */
function slashCommand(text: string) {
  return {
    token: 'verification-token',
    team_id: 'T1',
    team_domain: 'acme',
    channel_id: 'C1',
    channel_name: 'ml-ops',
    user_id: 'U1',
    user_name: 'ana',
    command: '/isvc',
    text,
    api_app_id: 'A1',
    response_url: 'https://hooks.slack.com/commands/T1/1/x',
    trigger_id: '1.2.3',
  };
}

/** What Bolt 5's respond() resolves to: the fetch Response of the response_url POST. */
const slackAnswers = (body: string) => async () =>
  new Response(body, { headers: { 'content-type': 'application/json' } });

function run(text: string, answer: () => Promise<Response> = slackAnswers('{"ok":true}')) {
  const fakes = handlerFakes();
  const responses: RespondArguments[] = [];
  const respond = jest.fn(async (r: string | RespondArguments) => {
    fakes.order.push('respond');
    if (typeof r !== 'string') responses.push(r);
    return answer();
  });
  const listener = isvcCommand(fakes.deps);
  const command = slashCommand(text);
  const args = listenerArgs(listener, {
    ack: fakes.ack,
    command,
    payload: command,
    body: command,
    respond,
    context: { requestId: 'r-0123456789ab' },
  });
  return { fakes, responses, done: listener(args) };
}

describe('/isvc listener', () => {
  it('acks once, first, then runs the text for the asker in their channel with the request id', async () => {
    const { fakes, responses, done } = run('status -n kserve-test');
    await done;
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.order[0]).toBe('ack');
    expect(fakes.order.indexOf('afterAck')).toBeGreaterThan(0);
    expect(fakes.added).toEqual([
      { kind: 'status', namespace: 'kserve-test', channel: 'C1', user: 'U1', requestId: 'r-0123456789ab' },
    ]);
    // the asker is told it is at work, only them
    expect(responses).toEqual([expect.objectContaining({ response_type: 'ephemeral', replace_original: false })]);
  });

  it('answers bad input with an ephemeral usage error through response_url, never a throw', async () => {
    const { fakes, responses, done } = run('frobnicate sklearn-iris');
    await expect(done).resolves.toBeUndefined();
    expect(fakes.ack).toHaveBeenCalledTimes(1);
    expect(fakes.added).toEqual([]);
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(responses[0]?.text).toContain('frobnicate');
  });

  it('logs a response_url that fails (RespondError) or that Slack refuses (ok: false), and still resolves', async () => {
    const refused = run('help', async () => {
      throw new RespondError('Failed to respond to the response_url: 404 Not Found', 404);
    });
    await expect(refused.done).resolves.toBeUndefined();
    expect(refused.fakes.logged).toContainEqual({ level: 'warn', message: expect.stringContaining('404') });
    const expired = run('help', slackAnswers('{"ok":false,"error":"expired_url"}'));
    await expect(expired.done).resolves.toBeUndefined();
    expect(expired.fakes.logged).toContainEqual({ level: 'warn', message: expect.stringContaining('expired_url') });
  });
});
