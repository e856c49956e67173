/**
 * Authorization (part of the reliability suite), against a real `serve` child (two-person rule on,
 * per-namespace approvers) and the simulator serving oom-exit-code-137: a non-approver's click, an
 * approver of another namespace, tampered button values, an expired proposal, the requester
 * approving their own proposal, and a click on a proposal whose object changed since → 0 PATCHes;
 * a second approver's click → exactly one. Clicks whose user id is the approver group's id → 0
 * writes, then a member of that group (resolved through usergroups.users.list) → exactly one.
 * Prints `reliability: unauthorized applies 0` and `reliability: group-id clicks: writes 0`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RunningSimulator } from '../../src/simulator/simulator.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from '../e2e/remediation-harness.js';
import type { FakeSlackApi } from '../support/fake-slack-api.js';
import { slashCommandBody } from '../support/slack-signing.js';
import { testRedisUrl } from '../support/test-redis.js';
import { figure, postSigned, workDir, type ServeChild, startBotUnderTest, type BotUnderTest } from './serve-child.js';

const SECRET = `rel-authz-${randomUUID()}`;
const ISVC = ['serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris'] as const;
const dir = workDir('authz');
let slack: FakeSlackApi;
let sim: RunningSimulator;
let bot: ServeChild;
let redis: Redis;

let started: BotUnderTest;

beforeAll(async () => {
  started = await startBotUnderTest({
    dir,
    secret: SECRET,
    scenario: 'oom-exit-code-137',
    prepare: (s) => s.setUserGroup('S0PLATFORM', ['U0PLATFORMMEMBER']),
    file: {
      approvers: ['U0APPROVER', 'U0APPROVER2', 'S0PLATFORM'],
      remediation: {
        approvers: { 'kserve-test': ['U0OTHERNS'] },
        twoPersonRule: true,
        verifyTimeout: '1s',
        verifyPoll: '100ms',
      },
    },
  });
  ({ slack, sim, bot } = started);
  redis = new Redis(testRedisUrl());
}, 120_000);

afterAll(async () => {
  redis?.disconnect();
  await started?.stop();
});

const patches = () => writes(sim.requests, { verb: 'patch', resource: 'inferenceservices' }).length;
const ephemeralsTo = (user: string) => slack.callsTo('chat.postEphemeral').filter((c) => c.body.user === user);

async function proposalIn(channel: string, user: string): Promise<{ id: string; ts: string }> {
  const res = await postSigned(
    bot.eventsUrl,
    SECRET,
    slashCommandBody({ text: 'diagnose sklearn-iris -n default', channel_id: channel, user_id: user }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor(() => proposalMessages(slack, channel).length > 0, 60_000);
  const call = proposalMessages(slack, channel).at(-1)!;
  return { id: proposalIdOf(call), ts: String(call.response!.ts) };
}

/** Clicks approve and waits for the refusal the clicker is shown; returns its text. */
async function refused(
  value: string,
  user: string,
  channel: string,
  actionId: 'remediation.approve' | 'remediation.reject' = 'remediation.approve',
): Promise<string> {
  const before = ephemeralsTo(user).length;
  expect(await postSignedClick(bot.eventsUrl, SECRET, { actionId, value, user, channel })).toBe(200);
  await slack.waitFor(() => ephemeralsTo(user).length > before, 30_000);
  return String(ephemeralsTo(user).at(-1)!.body.text);
}

describe('who may apply what', () => {
  let unauthorizedApplies = 0;
  const tried: string[] = [];
  afterAll(() => {
    figure('unauthorized applies', unauthorizedApplies);
    figure('unauthorized clicks tried', tried.length);
  });

  it('refuses a non-approver, an approver of another namespace, tampered values, an expired proposal and self-approval under the two-person rule', async () => {
    const before = patches();
    const p = await proposalIn('C0AUTHZ', 'U0ALICE');
    expect(await refused(p.id, 'U0MALLORY', 'C0AUTHZ')).toContain('NOT_APPROVER');
    tried.push('non-approver');
    expect(await refused(p.id, 'U0OTHERNS', 'C0AUTHZ')).toContain('NOT_APPROVER');
    tried.push('approver of another namespace');
    const last = p.id.at(-1) === 'A' ? 'B' : 'A';
    for (const value of [
      `${p.id.slice(0, -1)}${last}`,
      `${p.id}x`,
      p.id.toUpperCase(),
      `rp-${'A'.repeat(16)}`,
      '',
      'x'.repeat(10_000),
      `${p.id} `,
      `../${p.id}`,
    ]) {
      await refused(value, 'U0APPROVER', 'C0AUTHZ');
      tried.push(`tampered value ${value.slice(0, 30)}`);
    }
    // expiry: the proposal's deadline moved into the past (as time passing would)
    const e = await proposalIn('C0EXPIRED', 'U0ALICE');
    const key = `bull:${bot.queueName}:remediation:proposal:${e.id}`;
    const data = JSON.parse((await redis.hget(key, 'data'))!) as { expiresAt: number };
    await redis.hset(key, 'data', JSON.stringify({ ...data, expiresAt: Date.now() - 1000 }));
    expect(await refused(e.id, 'U0APPROVER', 'C0EXPIRED')).toContain('PROPOSAL_EXPIRED');
    tried.push('expired');
    // two-person rule: the approver who asked for the diagnosis may not approve its fix
    const own = await proposalIn('C0TWO', 'U0APPROVER');
    expect(await refused(own.id, 'U0APPROVER', 'C0TWO')).toContain('OWN_PROPOSAL');
    tried.push('own proposal (two-person rule)');
    unauthorizedApplies += patches() - before;
    expect(patches()).toBe(before);
    // a second approver applies it: exactly one PATCH
    expect(
      await postSignedClick(bot.eventsUrl, SECRET, {
        actionId: 'remediation.approve',
        value: own.id,
        user: 'U0APPROVER2',
        channel: 'C0TWO',
      }),
    ).toBe(200);
    await slack.waitFor(() => patches() === before + 1, 60_000);
    await slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.update' &&
            c.body.ts === own.ts &&
            JSON.stringify(c.body.blocks).includes('Approved by <@U0APPROVER2>'),
        ),
      30_000,
    );
    expect(patches()).toBe(before + 1);
  });

  it('does not apply a proposal whose object changed since the plan', async () => {
    const p = await proposalIn('C0STALE', 'U0ALICE');
    const live = sim.store.get(...ISVC)!;
    (live.spec as any).default.predictor.sklearn.resources = { limits: { memory: '3Gi' }, requests: { memory: '1Gi' } };
    sim.store.upsert(live);
    const before = patches();
    expect(await refused(p.id, 'U0APPROVER', 'C0STALE')).toContain('PROPOSAL_STALE');
    tried.push('object changed since');
    unauthorizedApplies += patches() - before;
    expect(patches()).toBe(before);
    expect((sim.store.get(...ISVC)!.spec as any).default.predictor.sklearn.resources.limits.memory).toBe('3Gi');
  });

  it('compares users with users: clicks whose user id is the approver group id write nothing; a member of the group applies', async () => {
    const p = await proposalIn('C0GROUPID', 'U0ALICE');
    const key = `bull:${bot.queueName}:remediation:proposal:${p.id}`;
    const before = patches();
    expect(await refused(p.id, 'S0PLATFORM', 'C0GROUPID')).toContain('NOT_APPROVER');
    expect(await refused(p.id, 'S0PLATFORM', 'C0GROUPID', 'remediation.reject')).toContain('NOT_APPROVER');
    tried.push('group id as user (approve)', 'group id as user (reject)');
    const groupIdWrites = patches() - before;
    const state = await redis.hget(key, 'state');
    figure('group-id clicks: writes', groupIdWrites + (state === 'pending' ? 0 : 1));
    unauthorizedApplies += groupIdWrites;
    expect(groupIdWrites).toBe(0);
    expect(state).toBe('pending');
    // the group still works, through its members
    expect(
      await postSignedClick(bot.eventsUrl, SECRET, {
        actionId: 'remediation.approve',
        value: p.id,
        user: 'U0PLATFORMMEMBER',
        channel: 'C0GROUPID',
      }),
    ).toBe(200);
    await slack.waitFor(() => patches() === before + 1, 60_000);
    expect(slack.callsTo('usergroups.users.list').some((c) => c.body.usergroup === 'S0PLATFORM')).toBe(true);
  });
});
