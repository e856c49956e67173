/**
 * `/isvc rollout` end to end: the split in the thread (TRAFFIC_SPLIT), proposals for promote /
 * roll back / 90/10 on the InferenceService itself, each applied once by an approver; v1alpha2
 * (canary-split-healthy) and v1beta1 (canary-new-revision-crashing).
 */
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, sleep, writes } from './remediation-harness.js';

const APPROVER = 'U0APPROVER';
const file = { approvers: [APPROVER], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } };

function helpers(h: BotHarness) {
  const rollout = (text: string, channel: string) =>
    postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: `rollout ${text}`,
      channel_id: channel,
      user_id: 'U0ALICE',
      response_url: h.slack.responseUrl(channel),
    });
  const approve = (id: string, user: string, channel: string) =>
    postSignedClick(h.eventsUrl, SIGNING_SECRET, { actionId: 'remediation.approve', value: id, user, channel });
  const patches = () => writes(h.sim.requests, { verb: 'patch', resource: 'inferenceservices' });
  const verified = (channel: string) => (calls: typeof h.slack.calls) =>
    calls.some(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.body.channel === channel &&
        /Not fixed yet|Verified|new root cause|is not ready after/.test(String(c.body.text)),
    );
  return { rollout, approve, patches, verified };
}

describe('/isvc rollout on a v1alpha2 canary (canary-split-healthy)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ scenario: 'canary-split-healthy', file });
  });
  afterAll(async () => {
    await h?.close();
  });
  const isvc = () =>
    h.sim.store.get('serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris')!.spec as any;

  it('shows the revisions in one message with Promote / Roll back / Set split; the split chosen is proposed, and an approver applies it with one PATCH', async () => {
    const { rollout, approve, patches, verified } = helpers(h);
    expect((await rollout('sklearn-iris', 'C0RO1')).status).toBe(200);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0RO1' &&
            String(c.body.text).startsWith('Rollout of default/sklearn-iris'),
        ),
      20_000,
    );
    const view = h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0RO1');
    // one message, nothing proposed until someone asks
    expect(view).toHaveLength(1);
    expect(view[0]!.body.thread_ts).toBeUndefined();
    const text = textOf(view[0]!.body);
    expect(text).toContain('canaryTrafficPercent 20: 80% stable / 20% canary');
    expect(text).toMatch(/\*stable\* `sklearn-iris-predictor-default-8bp2x` — 80%/);
    expect(text).toMatch(/\*canary\* `sklearn-iris-predictor-canary-tn7kd` — 20%/);
    for (const id of ['rollout.promote', 'rollout.rollback', 'rollout.split'])
      expect(JSON.stringify(view[0]!.body.blocks)).toContain(`"action_id":"${id}"`);
    expect(proposalMessages(h.slack, 'C0RO1')).toHaveLength(0);

    const rootTs = String(view[0]!.response!.ts);
    const click = (actionId: 'rollout.split' | 'rollout.promote', value: string, select = false) =>
      postSignedClick(h.eventsUrl, SIGNING_SECRET, {
        actionId,
        value,
        user: 'U0ALICE',
        channel: 'C0RO1',
        messageTs: rootTs,
        select,
      });
    expect(await click('rollout.split', 'default/sklearn-iris 90/10', true)).toBe(200);
    expect(await click('rollout.promote', 'default/sklearn-iris')).toBe(200);
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RO1').length === 2, 20_000);
    const proposals = proposalMessages(h.slack, 'C0RO1');
    for (const p of proposals) expect(p.body.thread_ts).toBe(rootTs);
    const split = proposals.find((p) => String(p.body.text).includes('set-canary-traffic'))!;
    const promote = proposals.find((p) => String(p.body.text).includes('promote-canary'))!;
    expect(textOf(split.body).replace(/\\n/g, '\n')).toMatch(/spec\.canaryTrafficPercent:\n- {3}20\n\+ {3}10/);
    expect(JSON.stringify(split.body.blocks)).toContain('Set canary to 10%');
    expect(patches()).toHaveLength(0);

    await approve(proposalIdOf(split), 'U0MALLORY', 'C0RO1');
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.postEphemeral' && String(c.body.text).includes('NOT_APPROVER')),
    );
    await sleep(200);
    expect(patches()).toHaveLength(0);

    await approve(proposalIdOf(split), APPROVER, 'C0RO1');
    await h.slack.waitFor(verified('C0RO1'), 20_000);
    expect(patches()).toHaveLength(1);
    expect(isvc().canaryTrafficPercent).toBe(10);
    // the promote proposal was planned against the old object: approving it now re-plans it
    await approve(proposalIdOf(promote), APPROVER, 'C0RO1');
    await h.slack.waitFor(
      (calls) =>
        proposalMessages(h.slack, 'C0RO1').length === 3 &&
        calls.some((c) => c.method === 'chat.postEphemeral' && String(c.body.text).includes('PROPOSAL_STALE')),
      20_000,
    );
    expect(patches()).toHaveLength(1);
  });

  it('promote makes the canary endpoint the default, once', async () => {
    const { rollout, approve, patches, verified } = helpers(h);
    const before = patches().length;
    await rollout('sklearn-iris -n default promote', 'C0RO2');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RO2').length === 1, 20_000);
    const p = proposalMessages(h.slack, 'C0RO2')[0]!;
    expect(p.body.blocks.find((b: any) => b.type === 'actions').elements[0].confirm.style).toBe('danger');
    await Promise.all([
      approve(proposalIdOf(p), APPROVER, 'C0RO2'),
      approve(proposalIdOf(p), APPROVER, 'C0RO2'),
      approve(proposalIdOf(p), APPROVER, 'C0RO2'),
    ]);
    await h.slack.waitFor(verified('C0RO2'), 20_000);
    expect(patches().length - before).toBe(1);
    const spec = isvc();
    expect(spec.canary).toBeUndefined();
    expect(spec.canaryTrafficPercent).toBeUndefined();
    expect(spec.default.predictor.sklearn.storageUri).toBe('gs://kfserving-samples/models/sklearn/iris-v2');
  });

  it('answers a bad split with an ephemeral usage message', async () => {
    const { rollout } = helpers(h);
    await rollout('sklearn-iris 60/30', 'C0RO3');
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url' && c.responseId === 'C0RO3'));
    expect(h.slack.callsTo('response_url').find((c) => c.responseId === 'C0RO3')!.body.text).toContain(
      'must add up to 100',
    );
  });
});

describe('/isvc rollout on a v1beta1 canary (canary-new-revision-crashing)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ scenario: 'canary-new-revision-crashing', file });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sets a 75/25 split on spec.predictor.canaryTrafficPercent, and rollback sets it to 0', async () => {
    const { rollout, approve, patches, verified } = helpers(h);
    const get = () =>
      (h.sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', 'default', 'sklearn-iris')!.spec as any)
        .predictor.canaryTrafficPercent;
    await rollout('sklearn-iris 75/25', 'C0RB1');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RB1').length === 1, 20_000);
    await approve(proposalIdOf(proposalMessages(h.slack, 'C0RB1')[0]!), APPROVER, 'C0RB1');
    await h.slack.waitFor(verified('C0RB1'), 20_000);
    expect(get()).toBe(25);
    await rollout('sklearn-iris rollback', 'C0RB2');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RB2').length === 1, 20_000);
    await approve(proposalIdOf(proposalMessages(h.slack, 'C0RB2')[0]!), APPROVER, 'C0RB2');
    await h.slack.waitFor(verified('C0RB2'), 20_000);
    expect(get()).toBe(0);
    expect(patches()).toHaveLength(2);
  });
});

describe('/isvc rollout on a Standard-mode canary (canary-standard-split-healthy-kserve-0-20)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      scenario: 'canary-standard-split-healthy-kserve-0-20',
      file: { ...file, namespaces: ['kserve-ci-e2e-test'] },
    });
  });
  afterAll(async () => {
    await h?.close();
  });
  const spec = () =>
    h.sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', 'kserve-ci-e2e-test', 'isvc-canary-create')!
      .spec as any;

  it('shows the Deployments with the spec.canary entry, and promote makes the canary the stable predictor with one PATCH', async () => {
    const { rollout, approve, patches, verified } = helpers(h);
    await rollout('isvc-canary-create -n kserve-ci-e2e-test', 'C0RS1');
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0RS1' &&
            String(c.body.text).startsWith('Rollout of kserve-ci-e2e-test/isvc-canary-create'),
        ),
      20_000,
    );
    const view = h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0RS1')!;
    expect(String(view.body.text)).toContain('spec.canary[0].trafficPercent (canary v2) 20: 80% stable / 20% canary');
    expect(String(view.body.text)).toContain('canary isvc-canary-create-v2-predictor 20%');
    await rollout('isvc-canary-create -n kserve-ci-e2e-test promote', 'C0RS2');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RS2').length === 1, 20_000);
    const p = proposalMessages(h.slack, 'C0RS2')[0]!;
    await Promise.all([approve(proposalIdOf(p), APPROVER, 'C0RS2'), approve(proposalIdOf(p), APPROVER, 'C0RS2')]);
    await h.slack.waitFor(verified('C0RS2'), 20_000);
    expect(patches()).toHaveLength(1);
    expect(spec().canary).toBeUndefined();
    expect(spec().predictor.name).toBe('v2');
    expect(spec().predictor.model.storageUri).toBe('gs://kfserving-examples/models/sklearn/1.3/mixedtype');
  });
});

describe('/isvc rollout on an LLMInferenceService routing group (llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      scenario: 'llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20',
      file: { ...file, namespaces: ['llm'] },
    });
  });
  afterAll(async () => {
    await h?.close();
  });
  const member = () =>
    h.sim.store.get('serving.kserve.io/v1alpha2', 'LLMInferenceService', 'llm', 'qwen3-coder-v2')!.spec as any;

  it('shows the members with their weights and only Roll back; rollback sets the weight to 0 with one PATCH; promote says the patches', async () => {
    const { rollout, approve, verified } = helpers(h);
    await rollout('qwen3-coder-v2 -n llm', 'C0RL1');
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0RL1' &&
            String(c.body.text).startsWith('Rollout of llm/qwen3-coder-v2'),
        ),
      20_000,
    );
    const view = h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0RL1')!;
    expect(String(view.body.text)).toContain(
      'routing group qwen3-coder by spec.router.route.weight: qwen3-coder-v2 1, qwen3-coder-v1 9 of 10',
    );
    expect(String(view.body.text)).toContain('canary qwen3-coder-v2 10% (not ready)');
    const buttons = (view.body.blocks as any[]).find((b) => b.type === 'actions').elements.map((e: any) => e.action_id);
    expect(buttons).toEqual(['rollout.rollback']);

    await rollout('qwen3-coder-v2 -n llm promote', 'C0RL2');
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.body.channel === 'C0RL2' &&
            String(c.body.text).includes('REMEDIATION_NOT_APPLICABLE') &&
            String(c.body.text).includes('kubectl patch llminferenceservice qwen3-coder-v1 -n llm'),
        ),
      20_000,
    );

    await rollout('qwen3-coder-v2 -n llm rollback', 'C0RL3');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RL3').length === 1, 20_000);
    const p = proposalMessages(h.slack, 'C0RL3')[0]!;
    expect(String(p.body.text)).toContain('set-llm-group-weight');
    await Promise.all([approve(proposalIdOf(p), APPROVER, 'C0RL3'), approve(proposalIdOf(p), APPROVER, 'C0RL3')]);
    await h.slack.waitFor(verified('C0RL3'), 20_000);
    expect(writes(h.sim.requests, { verb: 'patch', resource: 'llminferenceservices' })).toHaveLength(1);
    expect(member().router.route.weight).toBe(0);
  });
});
