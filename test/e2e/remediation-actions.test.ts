/**
 * skip-tag-resolution (ecr-tag-resolution-401), rollback-canary (canary-new-revision-crashing) and
 * lower-max-model-len (llm-runtime-hf-kv-cache-below-model-context), resume-stopped-service
 * (stopped-standard-gpu-released-by-kubectl), lower-gpu-memory-utilization
 * (llm-runtime-vllm-sampler-warmup-oom-gpu-util-095), lower-max-num-seqs
 * (llm-runtime-vllm-sampler-warmup-oom-default-fraction), raise-shm (llm-runtime-hf-tp2-nccl-shm-segment-model-spec),
 * set-llm-group-weight (llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20: an LLMInferenceService,
 * verified on the member that takes the traffic) end to end over HTTP: proposal with the exact change and a confirm dialog (medium risk), a
 * non-approver's click writes nothing, ten concurrent approver clicks make one PATCH, a stale
 * proposal is re-planned, and the audit record, the Event and the thread messages exist.
 */
import { AuditLog } from '../../src/remediation/audit-log.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, sleep, writes } from './remediation-harness.js';

const APPROVER = 'U0APPROVER';
const ECR = '123456789012.dkr.ecr.us-west-2.amazonaws.com';

interface Case {
  name: string;
  scenario: string;
  target: string;
  action: string;
  finding: string;
  resource: string;
  /** [apiVersion, kind, namespace, name] of the object the fix changes. */
  object: [string, string, string, string];
  diff: RegExp;
  changed(o: any): unknown;
  expected: unknown;
  /** Makes the object differ from the plan (another person's edit). */
  edit(o: any): void;
}

const cases: Case[] = [
  {
    name: 'skip-tag-resolution',
    scenario: 'ecr-tag-resolution-401',
    target: 'my-model -n ml-prod',
    action: 'skip-tag-resolution',
    finding: 'IMAGE_DIGEST_RESOLUTION_FAILED',
    resource: 'configmaps',
    object: ['v1', 'ConfigMap', 'knative-serving', 'config-deployment'],
    diff: new RegExp(
      `-   kind.local,ko.local,dev.local,registry.example.com[\\s\\S]*\\+   kind.local,ko.local,dev.local,registry.example.com,${ECR.replace(/\./g, '\\.')}`,
    ),
    changed: (o) => o.data.registriesSkippingTagResolving,
    expected: `kind.local,ko.local,dev.local,registry.example.com,${ECR}`,
    edit: (o) => (o.data.registriesSkippingTagResolving = 'kind.local,gcr.io'),
  },
  {
    name: 'rollback-canary',
    scenario: 'canary-new-revision-crashing',
    target: 'sklearn-iris -n default',
    action: 'rollback-canary',
    finding: 'CANARY_UNHEALTHY',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'default', 'sklearn-iris'],
    diff: /spec\.predictor\.canaryTrafficPercent:\n- {3}10\n\+ {3}0/,
    changed: (o) => o.spec.predictor.canaryTrafficPercent,
    expected: 0,
    edit: (o) => (o.spec.predictor.canaryTrafficPercent = 20),
  },
  {
    name: 'standard-canary-rollback',
    scenario: 'canary-standard-v2-model-uri-not-found-kserve-0-20',
    target: 'isvc-canary-create -n kserve-ci-e2e-test',
    action: 'rollback-canary',
    finding: 'CANARY_UNHEALTHY',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'kserve-ci-e2e-test', 'isvc-canary-create'],
    diff: /spec\.canary:\n- {3}.*sklearn\/1\.3\/mixedtyp.*v2.*trafficPercent.{1,8}20\}\]\n\+ {3}\(not set\)/,
    changed: (o) => o.spec.canary,
    expected: undefined,
    edit: (o) =>
      (o.spec.canary = [
        { trafficPercent: 20, predictor: { name: 'v2', model: { storageUri: 'gs://kfserving-examples/models/x' } } },
      ]),
  },
  {
    name: 'lower-max-model-len',
    scenario: 'llm-runtime-hf-kv-cache-below-model-context',
    target: 'codellama-13b -n code',
    action: 'lower-max-model-len',
    finding: 'KV_CACHE_TOO_SMALL',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'code', 'codellama-13b'],
    diff: /spec\.predictor\.model\.args:\n- {3}.*--dtype=float16.*\n\+ {3}.*--max-model-len=3664/,
    changed: (o) => o.spec.predictor.model.args.at(-1),
    expected: '--max-model-len=3664',
    edit: (o) => (o.spec.predictor.model.args = o.spec.predictor.model.args.slice(0, -1)),
  },
  {
    name: 'resume-stopped-service',
    scenario: 'stopped-standard-gpu-released-by-kubectl',
    target: 'qwen25-7b -n gpu-team',
    action: 'resume-stopped-service',
    finding: 'ISVC_STOPPED',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'gpu-team', 'qwen25-7b'],
    diff: /metadata\.annotations\.serving\.kserve\.io\/stop:\n- {3}true\n\+ {3}false/,
    changed: (o) => o.metadata.annotations['serving.kserve.io/stop'],
    expected: 'false',
    edit: (o) => (o.metadata.annotations['serving.kserve.io/stop'] = 'true'),
  },
  {
    name: 'lower-gpu-memory-utilization',
    scenario: 'llm-runtime-vllm-sampler-warmup-oom-gpu-util-095',
    target: 'qwen3-32b -n inference',
    action: 'lower-gpu-memory-utilization',
    finding: 'GPU_OUT_OF_MEMORY',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'inference', 'qwen3-32b'],
    diff: /spec\.predictor\.model\.args:\n- {3}.*--gpu-memory-utilization=0\.95.*\n\+ {3}.*--gpu-memory-utilization=0\.9\\*"\]/,
    changed: (o) => o.spec.predictor.model.args,
    expected: [
      '--model_id=Qwen/Qwen3-32B',
      '--backend=vllm',
      '--tensor-parallel-size=2',
      '--gpu-memory-utilization=0.9',
    ],
    edit: (o) =>
      (o.spec.predictor.model.args = [...o.spec.predictor.model.args.slice(0, -1), '--gpu-memory-utilization=0.95']),
  },
  {
    name: 'lower-max-num-seqs',
    scenario: 'llm-runtime-vllm-sampler-warmup-oom-default-fraction',
    target: 'qwq-32b -n inference',
    action: 'lower-max-num-seqs',
    finding: 'GPU_OUT_OF_MEMORY',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'inference', 'qwq-32b'],
    diff: /spec\.predictor\.model\.args:\n- {3}.*--tensor-parallel-size=8\\*"\]\n\+ {3}.*--max-num-seqs=512\\*"\]/,
    changed: (o) => o.spec.predictor.model.args.at(-1),
    expected: '--max-num-seqs=512',
    edit: (o) => (o.spec.predictor.model.args = o.spec.predictor.model.args.slice(0, -1)),
  },
  {
    name: 'raise-shm',
    scenario: 'llm-runtime-hf-tp2-nccl-shm-segment-model-spec',
    target: 'hugging-model-1 -n kserve-test',
    action: 'raise-shm',
    finding: 'SHM_TOO_SMALL',
    resource: 'inferenceservices',
    object: ['serving.kserve.io/v1beta1', 'InferenceService', 'kserve-test', 'hugging-model-1'],
    diff: /spec\.predictor\.model\.volumeMounts:\n- {3}\(not set\)\n\+ {3}.*\/dev\/shm[\s\S]*spec\.predictor\.volumes:\n- {3}\(not set\)\n\+ {3}.*Memory.*2Gi/,
    changed: (o) => [o.spec.predictor.volumes, o.spec.predictor.model.volumeMounts],
    expected: [
      [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '2Gi' } }],
      [{ name: 'dshm', mountPath: '/dev/shm' }],
    ],
    edit: (o) => {
      delete o.spec.predictor.volumes;
      delete o.spec.predictor.model.volumeMounts;
    },
  },
  {
    name: 'set-llm-group-weight',
    scenario: 'llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20',
    target: 'qwen3-coder-v2 -n llm',
    action: 'set-llm-group-weight',
    finding: 'LLM_GROUP_ROUTES_UNREADY_MEMBER',
    resource: 'llminferenceservices',
    object: ['serving.kserve.io/v1alpha2', 'LLMInferenceService', 'llm', 'qwen3-coder-v2'],
    diff: /spec\.router\.route\.weight:\n- {3}1\n\+ {3}0/,
    changed: (o) => o.spec.router.route.weight,
    expected: 0,
    edit: (o) => (o.spec.router.route.weight = 1),
  },
];

describe.each(cases)('$name from the thread', (c) => {
  let h: BotHarness;
  let audit: AuditLog;
  beforeAll(async () => {
    h = await startBotHarness({
      scenario: c.scenario,
      file: {
        namespaces: ['default', 'ml-prod', 'gpu-team', 'code', 'inference', 'kserve-test', 'kserve-ci-e2e-test', 'llm'],
        approvers: [APPROVER],
        remediation: { verifyTimeout: '1s', verifyPoll: '100ms' },
      },
    });
    audit = new AuditLog(h.bot.queue.connection, `${h.prefix}:${h.config.queue.name}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  const objectWrites = (from: number) => writes(h.sim.requests.slice(from), { verb: 'patch', resource: c.resource });
  const click = (id: string, user: string, channel: string) =>
    postSignedClick(h.eventsUrl, SIGNING_SECRET, { actionId: 'remediation.approve', value: id, user, channel });
  async function proposalIn(channel: string) {
    await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: `diagnose ${c.target}`,
      channel_id: channel,
      user_id: 'U0ALICE',
    });
    const mine = () =>
      proposalMessages(h.slack, channel).find((m) =>
        String(m.body.text).startsWith(`Proposed remediation ${c.action} `),
      );
    await h.slack.waitFor(() => mine() !== undefined, 20_000);
    const call = mine()!;
    return { id: proposalIdOf(call), body: call.body, ts: String(call.response!.ts) };
  }

  it('proposes the exact change with a confirm dialog; a non-approver changes nothing; ten approver clicks make one PATCH', async () => {
    const ch = `C0${c.name.replace(/-/g, '').toUpperCase().slice(0, 8)}1`;
    const p = await proposalIn(ch);
    const text = textOf(p.body);
    expect(text).toContain(c.action);
    expect(text).toContain(c.finding);
    expect(text).toContain(`${c.object[1]} ${c.object[2]}/${c.object[3]}`);
    expect(text.replace(/\\n/g, '\n')).toMatch(c.diff);
    const approveButton = (p.body.blocks as any[]).find((b) => b.type === 'actions').elements[0];
    expect(approveButton.confirm).toBeDefined();
    expect(approveButton.value).toBe(p.id); // the button carries only the opaque id; the patch stays in Redis

    const before = h.sim.requests.length;
    await click(p.id, 'U0MALLORY', ch);
    await h.slack.waitFor((calls) =>
      calls.some(
        (x) =>
          x.method === 'chat.postEphemeral' &&
          x.body.user === 'U0MALLORY' &&
          String(x.body.text).includes('NOT_APPROVER'),
      ),
    );
    await sleep(200);
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);

    await Promise.all(Array.from({ length: 10 }, () => click(p.id, APPROVER, ch)));
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (x) =>
            x.method === 'chat.postMessage' &&
            x.body.channel === ch &&
            /Not fixed yet|Verified|new root cause|Could not verify/.test(String(x.body.text)),
        ),
      20_000,
    );
    await sleep(200);
    expect(objectWrites(before)).toHaveLength(1);
    expect(writes(h.sim.requests.slice(before))).toHaveLength(1);
    expect(c.changed(h.sim.store.get(...c.object))).toEqual(c.expected);

    const log = await audit.list(p.id);
    expect(log.map((e) => e.event)).toEqual(['proposed', 'refused', 'approved', 'applied', 'verified']);
    expect(log.find((e) => e.event === 'applied')!.actor).toBe(APPROVER);
    const [, , ns, name] = c.name === 'skip-tag-resolution' ? ['', '', 'ml-prod', 'my-model'] : c.object;
    const events = h.sim.store.list('v1', 'Event', ns).filter((e: any) => e.reason === 'RemediationApplied');
    expect(events).toHaveLength(1);
    const serviceKind = c.object[1] === 'LLMInferenceService' ? 'LLMInferenceService' : 'InferenceService';
    expect((events[0] as any).involvedObject).toMatchObject({ kind: serviceKind, name });
    if (c.action === 'set-llm-group-weight')
      // verified on the member that takes the traffic: Ready, its split no longer sending any to the canary
      expect(
        h.slack
          .callsTo('chat.postMessage')
          .some((x) => x.body.channel === ch && String(x.body.text).includes('Verified: llm/qwen3-coder-v1 is Ready')),
      ).toBe(true);
    const thread = h.slack
      .callsTo('chat.postMessage')
      .filter((x) => x.body.channel === ch && x.body.thread_ts)
      .map((x) => String(x.body.text));
    expect(thread.some((t) => t.startsWith(`Applied ${c.action}`))).toBe(true);
    expect(
      h.slack
        .callsTo('chat.update')
        .some((u) => u.body.ts === p.ts && JSON.stringify(u.body.blocks).includes(`Approved by <@${APPROVER}>`)),
    ).toBe(true);
  });

  it('re-plans a stale proposal instead of applying it', async () => {
    // undo the first test's change so there is something to propose again
    const o = h.sim.store.get(...c.object)!;
    c.edit(o);
    h.sim.store.upsert(o);
    const ch = `C0${c.name.replace(/-/g, '').toUpperCase().slice(0, 8)}2`;
    const p = await proposalIn(ch);
    const edited = h.sim.store.get(...c.object)!;
    (edited.metadata as any).labels = { ...(edited.metadata.labels ?? {}), 'edited-by': 'someone-else' };
    h.sim.store.upsert(edited);
    const before = h.sim.requests.length;
    await click(p.id, APPROVER, ch);
    // (the crashing canary's CRASH_LOOP also gets a restart-pods proposal: count this action's only)
    const ofAction = () =>
      proposalMessages(h.slack, ch).filter((m) => String(m.body.text).startsWith(`Proposed remediation ${c.action} `));
    await h.slack.waitFor(
      (calls) =>
        ofAction().length === 2 &&
        calls.some((x) => x.method === 'chat.postEphemeral' && String(x.body.text).includes('PROPOSAL_STALE')),
      20_000,
    );
    expect(objectWrites(before)).toHaveLength(0);
  });
});
