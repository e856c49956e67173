/**
 * Escaping: cluster data and a user's words never notify anyone or make a link, in the
 * blocks nor in the notification `text` (Slack parses both). A storageUri holding `<!channel>` or
 * `<https://evil|click>` goes through every message that can carry it: the verdict, the first
 * reply and the details, the automatic incident posts, the proposal and its outcome, the notes;
 * usage errors quote the user's text escaped. Only the bot's own tokens (mentions of known users,
 * date tokens, configured links) remain.
 */
import { parseCommand } from '../../../src/commands/index.js';
import type { Report } from '../../../src/findings/types.js';
import { newIncident, newMember } from '../../../src/incidents/incident-model.js';
import { renderCommandReply } from '../../../src/notify/slack-command-replies.js';
import type { Proposal } from '../../../src/remediation/proposal.js';
import { renderDetailReplies, renderFirstReply, renderStatus, renderVerdict } from '../../../src/render/slack/index.js';
import {
  renderIncidentRoot,
  renderRecoveredNote,
  renderRootCauseChanged,
} from '../../../src/render/slack/render-incident.js';
import { renderInfoNote, renderJobFailed } from '../../../src/render/slack/render-notices.js';
import {
  renderApplyOutcome,
  renderProposal,
  renderProposalDecided,
  renderRefusal,
  renderVerification,
} from '../../../src/render/slack/render-proposal.js';
import { renderRolloutOpNotOffered, renderTrafficSplit } from '../../../src/render/slack/render-rollout.js';
import type { SlackMessage } from '../../../src/slack/slack-message.js';
import { storageUriNotFoundReport } from './report-fixtures.js';

const HOSTILE =
  'gs://bucket/<!channel> <!here|here> <https://evil.example|click> <@U0EVIL> <#C0EVIL> <!subteam^S0EVIL>';

/** Every `<…>` token in a message: only mentions of `allowed` users, date tokens and the configured links may be there. */
function expectNoInjectedTokens(m: SlackMessage, allowedUsers: string[] = []): void {
  for (const where of [m.text, JSON.stringify(m.blocks)]) {
    for (const [token] of where.matchAll(/<[^<>]*>/g)) {
      const ok =
        allowedUsers.some((u) => token === `<@${u}>`) ||
        token.startsWith('<!date^') ||
        /^<https:\/\/(grafana|jaeger)\.example\.com\/[^|]*\|[^>]*>$/.test(token);
      expect({ token, ok }).toEqual({ token, ok: true });
    }
  }
}

function hostileReport(): Report {
  const report = storageUriNotFoundReport();
  const root = report.findings[0]!;
  report.findings[0] = {
    ...root,
    title: `Model not found at ${HOSTILE}`,
    next: `kubectl edit inferenceservice sklearn-iris -n default: set storageUri (now ${HOSTILE})`,
    evidence: [
      {
        kind: 'field',
        ref: 'InferenceService default/sklearn-iris',
        text: `spec.predictor.sklearn.storageUri = ${HOSTILE}`,
      },
      {
        kind: 'log',
        ref: root.subject,
        container: 'storage-initializer',
        excerpt: [`RuntimeError: Failed to fetch model. The path or model ${HOSTILE} does not exist.`],
      },
      { kind: 'event', ref: root.subject, text: `Failed: ${HOSTILE}` },
    ],
  };
  report.findings[1] = { ...report.findings[1]!, title: `storage-initializer failed for ${HOSTILE}` };
  return report;
}

function proposal(): Proposal {
  return {
    id: 'rp-AbC123dEf456GhI7',
    action: 'restart-pods',
    params: {},
    plan: {
      action: 'restart-pods',
      params: {},
      summary: `Delete the pods of revision for ${HOSTILE}`,
      target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'sklearn-iris' },
      resourceVersion: '42',
      isvc: {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'default',
        name: 'sklearn-iris',
      },
      changes: [{ path: 'spec.predictor.storageUri', before: HOSTILE, after: 'gs://ok' }],
      write: { kind: 'delete-pods', namespace: 'default', pods: [] },
      risk: 'medium',
      riskNote: `Pods restart; ${HOSTILE}`,
    },
    target: { namespace: 'default', name: 'sklearn-iris' },
    findingCode: 'STORAGE_URI_NOT_FOUND',
    requester: 'U0ASKER',
    channel: 'C1',
    threadTs: '1.2',
    createdAt: 0,
    expiresAt: 600_000,
  };
}

describe('no cluster data or user text becomes a mention or a link', () => {
  it('in the diagnosis thread: verdict, first reply, details', () => {
    const report = hostileReport();
    for (const m of [renderVerdict(report), renderFirstReply(report), ...renderDetailReplies(report)])
      expectNoInjectedTokens(m);
    // and it is still shown, as text
    expect(renderFirstReply(report).text).toContain('&lt;!channel&gt;');
  });

  it('in automatic incident posts: the root message (open, grouped), the notes, the diagnosis', () => {
    const incident = newIncident('inc-1', 'C1', 'STORAGE_URI_NOT_FOUND', 0);
    incident.headline = {
      title: `Model not found at ${HOSTILE}`,
      next: `fix ${HOSTILE}`,
      links: [{ label: `<!channel>`, url: 'https://evil.example/<!channel>' }],
    };
    const a = newMember({ namespace: 'default', name: 'a' }, 'STORAGE_URI_NOT_FOUND', 0, 0, true);
    const b = newMember({ namespace: 'default', name: 'b' }, 'STORAGE_URI_NOT_FOUND', 0, 0, false);
    for (const m of [
      renderIncidentRoot(incident, [a], 60_000),
      renderIncidentRoot(incident, [a, b], 60_000),
      renderRootCauseChanged(a, 'X', 'Y'),
      renderRecoveredNote([{ ...a, recoveredAt: 5, recoveredBy: 'ready' }]),
    ])
      expectNoInjectedTokens(m);
    const report = hostileReport();
    for (const m of [renderFirstReply(report), ...renderDetailReplies(report)]) expectNoInjectedTokens(m);
  });

  it('in proposals, decisions (the decider as a mention), outcomes and notes', () => {
    const p = proposal();
    expectNoInjectedTokens(renderProposal(p, 0), ['U0ASKER']);
    const decided = renderProposalDecided(p, 'rejected', 'U0BOB', HOSTILE);
    expectNoInjectedTokens(decided, ['U0BOB']);
    expect(decided.text).toContain('<@U0BOB>');
    expectNoInjectedTokens(renderApplyOutcome(p, 'U0BOB', 'failed', HOSTILE), ['U0BOB']);
    expectNoInjectedTokens(renderApplyOutcome(p, 'U0BOB', 'applied', HOSTILE), ['U0BOB']);
    expectNoInjectedTokens(renderVerification(p, { kind: 'unverifiable', reason: HOSTILE } as never, 5));
    expectNoInjectedTokens(renderRefusal('NOT_APPROVER', HOSTILE));
    expectNoInjectedTokens(renderInfoNote(HOSTILE));
    expectNoInjectedTokens(renderRolloutOpNotOffered('promote', 'NOT_A_CANARY', HOSTILE));
    expectNoInjectedTokens(renderTrafficSplit({ namespace: 'default', name: 'x' }, 'v1beta1', [HOSTILE]));
    expectNoInjectedTokens(renderJobFailed({ namespace: 'default', name: 'x' }, HOSTILE));
    expectNoInjectedTokens(
      renderStatus('default', [
        { namespace: 'default', name: 'x', ready: false, reason: HOSTILE, apiVersion: 'v1beta1' },
      ]),
    );
  });

  it('in ephemeral usage errors, which quote what the user typed', () => {
    for (const typed of [
      'diagnose <!channel>',
      'diagnose <https://evil.example|click>',
      'status -n <@U0EVIL>',
      'frobnicate <!here>',
      'diagnose a b --x=<!channel>',
      'mute x <!channel>',
    ]) {
      const parsed = parseCommand(typed, { namespaces: null });
      expect('problem' in parsed).toBe(true);
      if (!('problem' in parsed)) continue;
      const m = renderCommandReply({
        kind: 'usage-error',
        problem: parsed.problem,
        usage: ['`/isvc diagnose NAME [-n NAMESPACE]` — why'],
      });
      expectNoInjectedTokens(m);
    }
  });
});
