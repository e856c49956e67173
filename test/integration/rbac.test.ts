/**
 * RBAC honest by construction: the code runs against the cluster simulator, which records every API
 * request, and the RBAC that `kubectl kustomize deploy/examples/serverless` renders (bound to the bot's
 * service account) must allow each of those requests, and grant nothing no request uses.
 *
 * What runs: the diagnosis of every scenario (with the deployed config), `/isvc status`, the
 * readiness check, every remediation a scenario's report offers (planned, approved, applied,
 * verified, through the same functions the worker calls), the rollout proposals, and the
 * unready-watcher (discovery, informers over all namespaces and over a list, the Lease, incident
 * jobs that diagnose). Per-namespace bindings (label isvc-doctor.io/per-namespace) are copied into
 * every namespace the requests touch, as the README tells operators to do for their namespaces.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { parse as parseYaml } from 'yaml';
import { diagnose } from '../../src/app/diagnoser.js';
import { startIncidents } from '../../src/app/incidents-wiring.js';
import { createRemediationDeps } from '../../src/app/remediation-wiring.js';
import { readinessChecker } from '../../src/bot/health-routes.js';
import { createBotMetrics } from '../../src/bot/metrics.js';
import { buildConfig, type AppConfig } from '../../src/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { listIsvcStatus } from '../../src/diagnosis/list-isvc-status.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { slackIncidentNotifier } from '../../src/notify/slack-incident-notifier.js';
import { slackRemediationNotifier } from '../../src/notify/slack-remediation-notifier.js';
import { ALL_ACTIONS } from '../../src/remediation/actions/index.js';
import { applyProposal } from '../../src/remediation/apply-proposal.js';
import { approveClick } from '../../src/remediation/decide-proposal.js';
import { offerRemediations } from '../../src/remediation/offer-remediations.js';
import type { RemediateJob, RemediationDeps } from '../../src/remediation/remediation-deps.js';
import { runRollout } from '../../src/remediation/run-rollout.js';
import { startSimulator, type RecordedRequest, type RunningSimulator } from '../../src/simulator/simulator.js';
import type { SlackMessage } from '../../src/slack/slack-message.js';
import type { SlackPoster } from '../../src/slack/slack-poster.js';
import { loadSnapshot, type Snapshot } from '../../src/snapshot/load-snapshot.js';
import { configFileOf, findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';
import {
  authorize,
  policyFromObjects,
  unusedAtoms,
  withBindingsCopiedTo,
  type RbacPolicy,
  type ResourceRequest,
} from '../support/rbac/rbac-policy.js';
import { listScenarios } from '../support/scenarios.js';

const APPROVER = 'U0APPROVER';
const PER_NAMESPACE = 'isvc-doctor.io/per-namespace';

interface Tagged extends RecordedRequest {
  origin: string;
}

const collected: Tagged[] = [];
const appliedActions = new Set<string>();
let objects: ManifestObject[];
let sa: { name: string; namespace: string };
let config: AppConfig;
let redis: Redis;

function collect(origin: string, sim: RunningSimulator, from = 0): void {
  for (const r of sim.requests.slice(from)) collected.push({ ...r, origin });
}

/** A SlackPoster that remembers what it posted (proposal ids come from the Approve buttons). */
function fakePoster(): SlackPoster & { posted: Array<{ channel: string; message: SlackMessage; threadTs?: string }> } {
  let n = 0;
  const posted: Array<{ channel: string; message: SlackMessage; threadTs?: string }> = [];
  return {
    posted,
    post: async (channel, message, threadTs) => {
      posted.push({ channel, message, ...(threadTs ? { threadTs } : {}) });
      n += 1;
      return `1700000000.${String(n).padStart(6, '0')}`;
    },
    update: async () => undefined,
    ephemeral: async () => undefined,
  };
}

function proposalIds(poster: ReturnType<typeof fakePoster>): string[] {
  const ids: string[] = [];
  for (const p of poster.posted)
    for (const block of (p.message.blocks ?? []) as Array<{
      type: string;
      elements?: Array<{ action_id?: string; value?: string }>;
    }>)
      for (const e of block.elements ?? []) if (e.action_id === 'remediation.approve' && e.value) ids.push(e.value);
  return ids;
}

function remediationDeps(sim: RunningSimulator, poster: SlackPoster, jobs: RemediateJob[]): RemediationDeps {
  const kubeConfig = kubeConfigForServer(sim.url);
  return createRemediationDeps({
    config,
    kubeConfig,
    redis,
    keyPrefix: `rbac-${randomUUID().slice(0, 8)}`,
    notify: slackRemediationNotifier(poster),
    groups: { members: async () => new Map() },
    enqueue: async (job) => void jobs.push(job),
    diagnose: (target, signal) =>
      diagnose(kubeConfig, target, { config: config.diagnosis, ...(signal ? { signal } : {}) }),
    warn: () => undefined,
  });
}

/** Approves the n-th proposal the bot offers and runs the apply job as the worker would. */
async function approveAndApply(
  deps: RemediationDeps,
  poster: ReturnType<typeof fakePoster>,
  jobs: RemediateJob[],
  index: number,
): Promise<string | null> {
  const id = proposalIds(poster)[index];
  if (!id) return null;
  const click = await approveClick(deps, { proposalId: id, user: APPROVER, channel: 'C0RBAC' });
  if (click.kind !== 'queued') return null;
  const job = jobs.shift()!;
  const result = await applyProposal(deps, job);
  const rec = await deps.store.get(id);
  if (result.state === 'verified' && rec) appliedActions.add(rec.proposal.action);
  return rec?.proposal.action ?? null;
}

/**
 * For the first three proposals `offer` makes, each on a fresh simulator: approve it and apply it as
 * the worker would, collecting the requests (`untilNone`: stop at the first index nothing was applied).
 */
async function eachProposal(
  snapshot: Snapshot,
  origin: string,
  untilNone: boolean,
  offer: (deps: RemediationDeps, sim: RunningSimulator) => Promise<unknown>,
): Promise<void> {
  for (let index = 0; index < 3; index += 1) {
    const sim = await startSimulator({ snapshot });
    try {
      const poster = fakePoster();
      const jobs: RemediateJob[] = [];
      const deps = remediationDeps(sim, poster, jobs);
      await offer(deps, sim);
      const action = await approveAndApply(deps, poster, jobs, index);
      collect(`${origin} #${index}`, sim);
      if (action === null && untilNone) return;
    } finally {
      await sim.close();
    }
  }
}

function toRequest(r: RecordedRequest): ResourceRequest {
  return {
    verb: r.verb,
    group: r.group,
    resource: r.resource,
    ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
    ...(r.name !== undefined ? { name: r.name } : {}),
  };
}

const resourceRequests = () => collected.filter((r) => r.resource !== '');

/** The rendered policy, with per-namespace bindings copied to every namespace the requests touch. */
function effectivePolicy(): RbacPolicy {
  const skip = new Set([sa.namespace, config.diagnosis.knativeNamespace]);
  const namespaces = [
    ...new Set(resourceRequests().flatMap((r) => (r.namespace && !skip.has(r.namespace) ? [r.namespace] : []))),
  ];
  return withBindingsCopiedTo(policyFromObjects(objects), PER_NAMESPACE, namespaces);
}

beforeAll(async () => {
  // the example with every opt-in piece (Knative roles, remediations in default) on the http overlay
  ({ objects } = renderKustomization('deploy/examples/serverless'));
  const deployment = findObject(objects, 'Deployment', 'isvc-doctor')!;
  const spec = (deployment.spec as { template: { spec: { serviceAccountName: string } } }).template.spec;
  sa = { name: spec.serviceAccountName, namespace: deployment.metadata.namespace! };
  const file = parseYaml(configFileOf(objects)) as Record<string, any>;
  config = buildConfig(
    // the deployed config, with approvers and quick verification (they change no request's shape)
    { ...file, approvers: [APPROVER], remediation: { ...file.remediation, verifyTimeout: '1ms', verifyPoll: '1ms' } },
    { SLACK_BOT_TOKEN: 'xoxb-rbac', SLACK_SIGNING_SECRET: 'rbac', REDIS_URL: process.env.REDIS_URL! },
  );
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  redis?.disconnect();
});

const scenarios = listScenarios();

describe('the requests the code makes', () => {
  it('diagnoses every scenario with the deployed config', async () => {
    for (const s of scenarios) {
      const sim = await startSimulator({ snapshot: await loadSnapshot(s.dir) });
      try {
        await diagnose(kubeConfigForServer(sim.url), s.expect.target, { config: config.diagnosis });
        collect(`diagnose ${s.name}`, sim);
      } finally {
        await sim.close();
      }
    }
    expect(collected.length).toBeGreaterThan(scenarios.length * 5);
  }, 180_000);

  it('answers /isvc status and the readiness check', async () => {
    const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/healthy-kserve')) });
    try {
      const kubeConfig = kubeConfigForServer(sim.url);
      expect((await listIsvcStatus(kubeConfig, 'default')).length).toBeGreaterThanOrEqual(0);
      expect((await listIsvcStatus(kubeConfig, null)).length).toBeGreaterThanOrEqual(0); // `/isvc status` without -n
      const ready = await readinessChecker({
        pingRedis: async () => undefined,
        kubeConfig,
        metrics: createBotMetrics({ defaultMetrics: false }),
      })();
      expect(ready.checks.kubernetes).toBe('ok');
      collect('status and readiness', sim);
    } finally {
      await sim.close();
    }
  });

  it('plans, approves, applies and verifies every remediation a scenario offers', async () => {
    for (const s of scenarios) {
      const snapshot = await loadSnapshot(s.dir);
      await eachProposal(snapshot, `remediation ${s.name}`, true, async (deps, sim) => {
        const report = await diagnose(kubeConfigForServer(sim.url), s.expect.target, { config: config.diagnosis });
        await offerRemediations(deps, report, [{ channel: 'C0RBAC', threadTs: '1700000000.000000', user: 'U0ALICE' }]);
      });
    }
  }, 120_000);

  it('proposes and applies the rollout operations (promote, roll back, 90/10)', async () => {
    for (const name of ['canary-new-revision-crashing', 'canary-split-healthy']) {
      const s = scenarios.find((x) => x.name === name)!;
      const snapshot = await loadSnapshot(s.dir);
      // the rollout message offers its operations as buttons; each button asks for one proposal
      for (const op of [{ kind: 'promote' }, { kind: 'rollback' }, { kind: 'split', canaryPercent: 10 }] as const) {
        await eachProposal(snapshot, `rollout ${name} ${op.kind}`, true, async (deps) => {
          await runRollout(deps, { target: s.expect.target, op, channel: 'C0RBAC', user: 'U0ALICE' });
        });
      }
    }
  }, 60_000);

  it.each([
    ['every namespace', null],
    ['listed namespaces', ['kserve-test', 'default']],
  ])(
    'runs the unready-watcher over %s: discovery, informers, the Lease, incident jobs',
    async (_what, namespaces) => {
      const snapshot: Snapshot = await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found'));
      // a cluster migrating from KFServing to KServe: discovery shows both groups, the watcher watches both,
      // and (KServe 0.20) the LLMInferenceServices
      snapshot.cluster = { ...snapshot.cluster, kserve: '0.20' };
      const sim = await startSimulator({ snapshot });
      const poster = fakePoster();
      const prefix = `rbac-${randomUUID().slice(0, 8)}`;
      const watcherConfig: AppConfig = {
        ...config,
        namespaces,
        podNamespace: sa.namespace,
        alerts: { ...config.alerts, channel: 'C0ALERTS', unreadyAfterMs: 50 },
        leaderElection: { ...config.leaderElection, leaseDurationMs: 1000 },
      };
      const kubeConfig = kubeConfigForServer(sim.url);
      const incidents = startIncidents({
        config: watcherConfig,
        runWorker: true,
        runWatcher: true,
        kubeConfig,
        connection: redis,
        prefix,
        notify: slackIncidentNotifier(poster),
        diagnose: (t, signal) => diagnose(kubeConfig, t, { config: config.diagnosis, ...(signal ? { signal } : {}) }),
        logger: silentLogger,
        refreshDelayMs: 50,
      });
      try {
        const deadline = Date.now() + 20_000;
        // an incident root in the alerts channel and the diagnosis in its thread
        while (
          !(
            poster.posted.some((p) => p.channel === 'C0ALERTS' && !p.threadTs) &&
            poster.posted.some((p) => p.channel === 'C0ALERTS' && p.threadTs)
          )
        ) {
          if (Date.now() > deadline) throw new Error('no incident was posted');
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await incidents.close();
        collect(`watcher (${namespaces ? 'namespaces' : 'all'})`, sim);
        await sim.close();
      }
      const leases = collected.filter((r) => r.resource === 'leases');
      expect(new Set(leases.map((r) => r.verb))).toEqual(new Set(['get', 'create', 'update']));
    },
    30_000,
  );
});

describe('the RBAC in deploy/ (http overlay with every opt-in piece, bound to the bot service account)', () => {
  it('binds the roles to the Deployment service account, and the socket-mode overlay renders the same RBAC', () => {
    expect(sa).toEqual({ name: 'isvc-doctor', namespace: 'isvc-doctor' });
    const rbacOf = (objs: ManifestObject[]) =>
      objs
        .filter((o) => o.apiVersion.startsWith('rbac.authorization.k8s.io/'))
        .map((o) => JSON.stringify(o))
        .sort();
    expect(rbacOf(renderKustomization('deploy/overlays/socket-mode').objects)).toEqual(
      rbacOf(renderKustomization('deploy/overlays/http').objects),
    );
  });

  it('allows every request the code makes', () => {
    const policy = effectivePolicy();
    const denied = new Map<string, string>();
    for (const r of resourceRequests()) {
      if (authorize(policy, sa, toRequest(r))) continue;
      const key = `${r.verb} ${r.group || 'core'}/${r.resource} ${r.namespace ? `in ${r.namespace}` : '(cluster scope)'}${r.name ? ` name=${r.name}` : ''}`;
      if (!denied.has(key)) denied.set(key, r.origin);
    }
    expect([...denied].map(([k, origin]) => `${k} (from ${origin})`)).toEqual([]);
  });

  it('makes no request outside the API resources but discovery (allowed to every authenticated user by system:discovery)', () => {
    const other = collected.filter(
      (r) => r.resource === '' && !(r.method === 'GET' && /^\/(version|api|apis)(\/[^/]+){0,2}\/?$/.test(r.path)),
    );
    expect(other.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('grants nothing that no request uses', () => {
    const unused = unusedAtoms(effectivePolicy(), sa, resourceRequests().map(toRequest));
    expect(
      unused.map(
        (a) =>
          `${a.rule} via ${a.binding}: ${a.verb} ${a.group || 'core'}/${a.resource}${a.resourceName ? ` name=${a.resourceName}` : ''}`,
      ),
    ).toEqual([]);
  });

  it('every remediation action was applied by some scenario (a new action needs a scenario and its RBAC)', () => {
    expect(ALL_ACTIONS.map((a) => a.id).filter((id) => !appliedActions.has(id))).toEqual([]);
  });
});
