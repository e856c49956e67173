/**
 * Golden Block Kit files for every message kind besides the report (render-report.test.ts): the
 * proposal before and after a decision, the incident posts, status, help, the usage and job errors.
 * Each also checks what the issue asked of it (a mention for the decider, the action-specific
 * Approve label, "unready since" as a date token, Mute 1h, recoveries in the order they happened).
 */
import { USAGE } from '../../../src/commands/index.js';
import { renderCommandReply } from '../../../src/notify/slack-command-replies.js';
import { newIncident, newMember, recover, type Member } from '../../../src/incidents/incident-model.js';
import type { Proposal } from '../../../src/remediation/proposal.js';
import { renderHelp, renderJobFailed, renderStatus, renderUsageError } from '../../../src/render/slack/index.js';
import {
  renderIncidentRoot,
  renderJoinedNote,
  renderRecoveredNote,
  renderResolvedNote,
  renderRootCauseChanged,
} from '../../../src/render/slack/render-incident.js';
import {
  approveLabel,
  renderDryRunRefused,
  renderProposal,
  renderProposalDecided,
} from '../../../src/render/slack/render-proposal.js';
import { expectGolden } from './golden.js';
import type { Button } from '../../../src/slack/slack-message.js';

const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);
const json = (v: unknown) => JSON.stringify(v);

function raiseProposal(): Proposal {
  return {
    id: 'rp-AbC123dEf456GhI7',
    action: 'raise-memory-limit',
    params: { component: 'predictor', path: ['spec', 'predictor', 'sklearn', 'resources'], from: '256Mi', to: '512Mi' },
    plan: {
      action: 'raise-memory-limit',
      params: {},
      summary: 'Raise the predictor memory limit from 256Mi to 512Mi (request 256Mi → 512Mi)',
      target: {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'default',
        name: 'sklearn-iris',
      },
      resourceVersion: '1234',
      isvc: {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'default',
        name: 'sklearn-iris',
      },
      changes: [{ path: 'spec.predictor.sklearn.resources.limits.memory', before: '256Mi', after: '512Mi' }],
      write: {
        kind: 'patch',
        target: {
          apiVersion: 'serving.kserve.io/v1beta1',
          kind: 'InferenceService',
          namespace: 'default',
          name: 'sklearn-iris',
        },
        patchType: 'merge',
        patch: {},
      } as never,
      risk: 'medium',
      riskNote: 'The predictor pods restart with the new limit.',
    },
    target: { namespace: 'default', name: 'sklearn-iris' },
    findingCode: 'OOM_KILLED',
    requester: 'U0ASKER',
    channel: 'C1',
    threadTs: '1.2',
    createdAt: T0,
    expiresAt: T0 + 15 * 60_000,
  };
}

describe('proposal', () => {
  it('says what Approve does, names the requester as a mention, expires as a date token', () => {
    const p = raiseProposal();
    expect(approveLabel(p)).toBe('Raise to 512Mi');
    const m = renderProposal(p, T0);
    expect(json(m)).toContain('✅ Raise to 512Mi');
    expect(json(m)).toContain('<@U0ASKER>');
    expect(json(m)).toContain('<!date^');
    expectGolden('proposal-pending', m);
  });

  it('once decided: no buttons, the decider as a mention in the text and the blocks', () => {
    const m = renderProposalDecided(raiseProposal(), 'verified', 'U0BOB');
    expect(m.text).toContain('by <@U0BOB>');
    expect(m.blocks.some((b) => b.type === 'actions')).toBe(false);
    expectGolden('proposal-decided', m);
  });

  it('says which check stands behind the change: the dry run when planned, or the reads with the dry run on approval', () => {
    const dryRun = json(renderProposal(raiseProposal(), T0));
    expect(dryRun).toContain('dry run accepted by the API server');
    const p = raiseProposal();
    const fromReads = json(renderProposal({ ...p, plan: { ...p.plan, checkedBy: 'reads' } }, T0));
    expect(fromReads).not.toContain('dry run accepted');
    expect(fromReads).toContain(
      'computed from the objects just read; the API server dry-runs it when approved, before the write',
    );
  });

  it('a dry run refused on approval: who approved, the code and the reason, nothing changed', () => {
    const m = renderDryRunRefused(
      raiseProposal(),
      'U0BOB',
      'REMEDIATION_NOT_APPLICABLE',
      'forbidden: cannot patch inferenceservices',
    );
    expect(m.text).toContain(
      'in its dry run before the write (REMEDIATION_NOT_APPLICABLE: forbidden: cannot patch inferenceservices), so nothing was changed',
    );
    expect(m.text).toContain('Approved by <@U0BOB>');
  });

  it('a pod restart for a cause in the spec says it comes after the fix', () => {
    const p = { ...raiseProposal(), action: 'restart-pods', findingCode: 'STORAGE_URI_NOT_FOUND' };
    expect(approveLabel(p)).toBe('Restart pods (after the fix)');
    expect(json(renderProposal(p, T0))).toContain('After you fix the cause');
  });
});

describe('incident posts', () => {
  const incident = () => {
    const i = newIncident('inc-1', 'C0ALERTS', 'OOM_KILLED', T0);
    i.headline = {
      title: 'kserve-container was killed for exceeding its 256Mi memory limit',
      next: 'kubectl edit inferenceservice a -n default: raise spec.predictor.model.resources.limits.memory',
      links: [{ label: 'Grafana', url: 'https://grafana.example.com/d/kserve?var-isvc=a' }],
    };
    return i;
  };
  const member = (name: string, first: boolean, since = T0): Member =>
    newMember({ namespace: 'default', name }, 'OOM_KILLED', since, T0, first);

  it('one service: the cause in words, the next step, "since" as a date token, Re-diagnose, Mute 1h and the links', () => {
    const m = renderIncidentRoot(incident(), [member('a', true)], T0 + 5 * 60_000);
    const text = json(m.blocks);
    expect(text).toContain(`<!date^${T0 / 1000}^{ago}|5m ago>`);
    expect(text).toContain('👉 *Next:* kubectl edit inferenceservice a');
    expect(text).toContain('"action_id":"diagnosis.rerun"');
    expect(text).toContain('"action_id":"incident.mute"');
    expect(text).toContain('"url":"https://grafana.example.com/d/kserve?var-isvc=a"');
    expect(m.text).toBe(
      '🔴 default/a has not been ready for 5m: OOM_KILLED — kserve-container was killed for exceeding its 256Mi memory limit',
    );
    expectGolden('incident-open', m);
  });

  it('a group, its notes and its resolution', () => {
    const members = [member('a', true), member('b', false), member('c', false)];
    expectGolden('incident-grouped', renderIncidentRoot(incident(), members, T0 + 60_000));
    expectGolden('incident-joined', renderJoinedNote(members.slice(1), 'OOM_KILLED'));
    expectGolden('incident-root-cause-changed', renderRootCauseChanged(members[0]!, 'REVISION_MISSING', 'OOM_KILLED'));
    const recovered = [
      recover(members[2]!, T0 + 9 * 60_000, 'ready'),
      recover(members[1]!, T0 + 4 * 60_000, 'deleted'),
    ];
    const note = renderRecoveredNote(recovered);
    // in the order they recovered, one line each
    expect(json(note.blocks)).toMatch(
      /default\/b\* was deleted \(recovered after 4m\)\\n• \*default\/c\* is Ready again \(recovered after 9m\)/,
    );
    expectGolden('incident-recovered', note);
    expectGolden('incident-resolved', renderResolvedNote(members, T0 + 10 * 60_000));
  });
});

describe('answers to the asker', () => {
  it('help lists every command, rollout and mute included, in the fallback text too', () => {
    const m = renderHelp(USAGE);
    for (const word of ['diagnose', 'status', 'rollout', 'mute', 'unmute']) expect(m.text).toContain(`/isvc ${word}`);
    expectGolden('help', m);
  });

  it('a usage error shows the problem and only the relevant usage', () => {
    expectGolden('usage-error', renderUsageError('diagnose needs the name of an InferenceService.', [USAGE[0]!]));
  });

  it('status and a failed job', () => {
    expectGolden(
      'status',
      renderStatus('default', [
        {
          namespace: 'default',
          name: 'a',
          ready: true,
          url: 'http://a.default.example.com',
          apiVersion: 'serving.kserve.io/v1beta1',
        },
        {
          namespace: 'default',
          name: 'b',
          ready: false,
          reason: 'RevisionMissing',
          apiVersion: 'serving.kserve.io/v1beta1',
        },
      ]),
    );
    expectGolden('job-failed', renderJobFailed({ namespace: 'default', name: 'a' }, 'INTERNAL'));
  });

  it('status rows say how long each has been ready or not, as date tokens', () => {
    const m = renderStatus(
      'default',
      [
        {
          namespace: 'default',
          name: 'b',
          ready: false,
          reason: 'RevisionMissing',
          apiVersion: 'serving.kserve.io/v1beta1',
          since: T0,
        },
      ],
      { now: T0 + 3_600_000 },
    );
    expect(json(m.blocks)).toContain(`not ready since <!date^${T0 / 1000}^{ago}|1h ago>`);
  });

  it('a namespace the bot may not list says so, not "No InferenceServices"', () => {
    const m = renderStatus('team-secret', [], { forbidden: true });
    expect(m.text).toContain('may not list InferenceServices in team-secret (403 Forbidden)');
    expect(m.text).not.toContain('No InferenceServices');
  });

  it('a failed status job names the command and the namespace, never "-/-"', () => {
    const m = renderCommandReply({
      kind: 'failed',
      target: null,
      code: 'QUEUE_TIMEOUT',
      command: 'status',
      namespace: 'default',
    });
    expect(m.text).toBe("`/isvc status` in default failed (QUEUE_TIMEOUT). The bot's logs say more; try again.");
    expect(json(m)).not.toContain('-/-');
  });
});

describe('a name that does not exist', () => {
  it('offers "Diagnose NAME" for the close names that do', async () => {
    const { renderVerdict } = await import('../../../src/render/slack/index.js');
    const v = renderVerdict({
      target: { namespace: 'default', name: 'sklearn-irsi', apiVersion: null },
      ready: false,
      rootCause: 'ISVC_NOT_FOUND',
      findings: [
        {
          code: 'ISVC_NOT_FOUND',
          severity: 'error',
          subject: 'InferenceService default/sklearn-irsi',
          title: 'No InferenceService "sklearn-irsi" in namespace default (did you mean sklearn-iris?)',
          evidence: [
            { kind: 'field', ref: 'Namespace default', text: 'close names that exist: sklearn-iris, sklearn-iris-v2' },
          ],
          remediation: null,
          next: 'kubectl get inferenceservices -n default',
        },
      ],
      stats: { durationMs: 1, apiRequests: 2 },
    });
    const buttons = v.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    expect(buttons.map((b) => [(b as Button).text.text, (b as Button).value])).toEqual([
      ['Diagnose sklearn-iris', 'default/sklearn-iris'],
      ['Diagnose sklearn-iris-v2', 'default/sklearn-iris-v2'],
    ]);
    expectGolden('isvc-not-found-verdict', v);
  });

  it('offers "Diagnose NAMESPACE/NAME" for the same name in other namespaces, before close names', async () => {
    const { renderVerdict } = await import('../../../src/render/slack/index.js');
    const v = renderVerdict({
      target: { namespace: 'default', name: 'qwq-32b', apiVersion: null },
      ready: false,
      rootCause: 'ISVC_NOT_FOUND',
      findings: [
        {
          code: 'ISVC_NOT_FOUND',
          severity: 'error',
          subject: 'InferenceService default/qwq-32b',
          title: 'No InferenceService "qwq-32b" in namespace default (it is in namespaces research, staging)',
          evidence: [
            { kind: 'field', ref: 'Namespace default', text: 'close names that exist: qwq-32' },
            { kind: 'field', ref: 'InferenceService qwq-32b', text: 'in other namespaces: research, staging' },
          ],
          remediation: null,
          next: 'qwq-32b is in namespaces research, staging, not default: isvc-doctor diagnose qwq-32b -n research',
        },
      ],
      stats: { durationMs: 1, apiRequests: 3 },
    });
    const buttons = v.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    expect(buttons.map((b) => [(b as Button).text.text, (b as Button).value])).toEqual([
      ['Diagnose research/qwq-32b', 'research/qwq-32b'],
      ['Diagnose staging/qwq-32b', 'staging/qwq-32b'],
      ['Diagnose qwq-32', 'default/qwq-32'],
    ]);
  });
});

describe('each error', () => {
  it('has its golden: queue down, not in channel, cluster unreachable, timed out, refused click, progress', async () => {
    const notices = await import('../../../src/render/slack/render-notices.js');
    const { renderJobTimedOut } = await import('../../../src/render/slack/render-timeout.js');
    const { renderRefusal } = await import('../../../src/render/slack/render-proposal.js');
    const { renderProgress } = await import('../../../src/render/slack/render-verdict.js');
    const t = { namespace: 'default', name: 'sklearn-iris' };
    expectGolden('error-queue-unavailable', notices.renderQueueUnavailable());
    expectGolden('error-not-in-channel', notices.renderNotInChannel());
    expectGolden('error-cluster-unreachable', notices.renderClusterUnreachable(t, 'connect ECONNREFUSED', 3));
    expectGolden('error-timed-out', renderJobTimedOut(t, 90));
    expectGolden('error-click-refused', renderRefusal('NOT_APPROVER', 'only approvers can apply it'));
    expectGolden(
      'progress-retrying',
      renderProgress(t, { phase: 'retrying', attempt: 2, delayMs: 4000, reason: 'ECONNRESET' }, 'U0ASKER'),
    );
    expectGolden('joined', notices.renderJoined(t, 'U0BOB'));
  });

  it('a click on a decided proposal names who decided it as a mention (the domain passes the id, not Slack syntax)', async () => {
    const { renderRefusal } = await import('../../../src/render/slack/render-proposal.js');
    const m = renderRefusal('PROPOSAL_ALREADY_APPROVED', 'already approved, it is being applied', [], 'U0ALICE');
    expect(m.text).toBe(
      'Not done (PROPOSAL_ALREADY_APPROVED): already approved, it is being applied (by <@U0ALICE>). Nothing was changed.',
    );
  });

  it('the unmute usage names -n', () => {
    expect(USAGE.find((u) => u.startsWith('`/isvc unmute'))).toContain('-n NAMESPACE');
  });

  it('a fix by hand keeps its YAML as a code block (BOT_FORBIDDEN RBAC), not flattened into a bullet', async () => {
    const { renderDetailReplies } = await import('../../../src/render/slack/index.js');
    const yaml =
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nrules:\n- apiGroups: [""]\n  resources: [pods/log]\n  verbs: [get]';
    const report = {
      target: { namespace: 'default', name: 'a', apiVersion: 'serving.kserve.io/v1beta1' },
      ready: true,
      rootCause: null,
      findings: [
        {
          code: 'ISVC_READY' as const,
          severity: 'info' as const,
          subject: 'InferenceService default/a',
          title: 'a is ready',
          evidence: [],
          remediation: null,
        },
        {
          code: 'BOT_FORBIDDEN' as const,
          severity: 'warning' as const,
          subject: 'Namespace default',
          title: 'Cannot read pods/log in default',
          evidence: [],
          remediation: { action: 'manual', summary: 'Grant get pods/log', manual: yaml, needsApproval: false },
        },
      ],
      stats: { durationMs: 1, apiRequests: 1 },
    };
    const text = renderDetailReplies(report)
      .map((m) => JSON.stringify(m.blocks))
      .join('\n');
    expect(text).toContain('```\\napiVersion: rbac.authorization.k8s.io/v1\\nkind: ClusterRole\\nrules:');
  });
});
