import { FINDING_CODES } from '../../../src/findings/catalog.js';
import type { Report } from '../../../src/findings/types.js';
import {
  messageChars,
  renderDetailReplies,
  renderFirstReply,
  renderReportMessages,
  renderVerdict,
  screenLines,
  SLACK_LIMITS,
} from '../../../src/render/slack/index.js';
import type { SlackMessage } from '../../../src/slack/slack-message.js';
import { expectGolden } from './golden.js';
import { hugeReport, oomReport, readyReport, storageUriNotFoundReport } from './report-fixtures.js';

function expectWithinLimits(messages: SlackMessage[]): void {
  for (const m of messages) {
    expect(m.blocks.length).toBeGreaterThan(0);
    expect(m.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocksPerMessage);
    expect(messageChars(m)).toBeLessThanOrEqual(SLACK_LIMITS.messageChars);
    expect(m.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
    for (const b of m.blocks) {
      if (b.type === 'section') expect(b.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      if (b.type === 'header') expect(b.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
      if (b.type === 'context') expect(b.elements.length).toBeLessThanOrEqual(SLACK_LIMITS.contextElements);
    }
  }
}

const allText = (m: SlackMessage) => JSON.stringify(m.blocks);

/** Every finding's code appears in the text (fallback and blocks) of some message of the thread. */
function expectCodesNamed(report: Report, messages: SlackMessage[]): void {
  const named = new Set<string>();
  for (const m of messages)
    for (const code of FINDING_CODES) if (allText(m).includes(`\`${code}\``) && m.text.includes(code)) named.add(code);
  for (const f of report.findings)
    expect({ code: f.code, named: named.has(f.code) }).toEqual({ code: f.code, named: true });
}

describe('the first reply', () => {
  it('is the deciding evidence of the root cause: its code, the log tail labelled with its source, the consequences in one line', () => {
    const report = storageUriNotFoundReport();
    const first = renderFirstReply(report);
    expect(first.text).toContain('STORAGE_URI_NOT_FOUND');
    const text = allText(first);
    expect(text).toContain('Root cause: `STORAGE_URI_NOT_FOUND`');
    expect(text).toContain(
      '9 │ RuntimeError: Failed to fetch model. The path or model gs://kfserving-samples/models/sklearn/iris-1 does not exist.',
    );
    expect(text).toContain('container `storage-initializer`');
    expect(text).toContain('also: `STORAGE_INIT_FAILED`, `REVISION_MISSING` — explained by `STORAGE_URI_NOT_FOUND`');
    // no severity emoji outside the verdict, no figures line
    expect(text).not.toMatch(/🔴|🟠/);
    expect(text).not.toContain('Kubernetes API requests');
    expect(screenLines(renderVerdict(report)) + screenLines(first)).toBeLessThanOrEqual(15);
    expectGolden('storage-uri-not-found', renderReportMessages(report));
  });

  it('does not repeat a fix the bot proposes (the proposal with its buttons follows)', () => {
    const report = oomReport();
    const first = renderFirstReply(report);
    const text = allText(first);
    expect(text).toContain('&lt;tokenizer&gt;');
    expect(text).not.toContain('```weights```');
    expect(text).toContain('previous instance');
    expect(renderReportMessages(report).map(allText).join('\n')).not.toContain('memory: 2Gi');
    expectCodesNamed(report, renderReportMessages(report));
    expectGolden('oom-killed', renderReportMessages(report));
  });

  it('cuts a long line around its status code, not at its head', () => {
    const report = storageUriNotFoundReport();
    const line = `${'{"level":"info","stacktrace":"x"} '.repeat(20)} ready: false, error: unexpected status code: want [200], got 302 (depth: 0) ${'y'.repeat(600)}`;
    report.findings[0] = {
      ...report.findings[0]!,
      evidence: [{ kind: 'log', ref: 'Pod default/x', container: 'networking-istio', excerpt: [line] }],
    };
    expect(allText(renderFirstReply(report))).toContain('unexpected status code: want [200], got 302');
  });

  it('shows the exception line of a traceback, not its first File line', () => {
    const report = storageUriNotFoundReport();
    const excerpt = [
      'Traceback (most recent call last):',
      ...Array.from({ length: 30 }, (_, i) => `  File "/app/m${i}.py", line ${i}, in f`),
      "KeyError: 'LABELS_URL'",
    ];
    report.findings[0] = {
      ...report.findings[0]!,
      evidence: [{ kind: 'log', ref: 'Pod default/x', container: 'kserve-container', excerpt }],
    };
    const text = allText(renderFirstReply(report));
    expect(text).toContain("KeyError: 'LABELS_URL'");
    expect(text).not.toContain('Traceback (most recent call last)');
  });

  it('never cuts a redaction marker in half', () => {
    const report = storageUriNotFoundReport();
    const line = `${'a'.repeat(390)} Authorization: Bearer [REDACTED] and more ${'b'.repeat(300)}`;
    report.findings[0] = { ...report.findings[0]!, evidence: [{ kind: 'event', ref: 'Pod default/x', text: line }] };
    expect(allText(renderFirstReply(report))).not.toMatch(/\[R[A-Z]*…|\[REDACT(?!ED\])/);
  });

  it('puts raw newlines of a value on one bullet line', () => {
    const report = oomReport();
    report.findings[0] = {
      ...report.findings[0]!,
      evidence: [
        {
          kind: 'condition',
          ref: 'Revision models/r',
          text: 'Ready=False (ExitCode137): Container failed with: OOMKilled\nsecond line\n',
        },
      ],
    };
    const text = allText(renderFirstReply(report));
    expect(text).toContain('OOMKilled ⏎ second line');
  });
});

describe('the details replies', () => {
  it('lists the consequences one line each, then other findings, the request flow and the links; the figures once at the end', () => {
    const messages = renderDetailReplies(storageUriNotFoundReport());
    const rest = messages.map(allText).join('\n');
    expect(rest).toContain('Explained by `STORAGE_URI_NOT_FOUND`');
    expect(rest).toMatch(/⚠️ Revision sklearn-iris-predictor-default-00001 — not ready _\(failing\)_/);
    expect(rest).toContain('✅ Gateway knative-ingress-gateway');
    expect(rest).toContain(
      '<https://grafana.example.com/d/kserve?var-namespace=default&var-isvc=sklearn-iris|Grafana>',
    );
    expect(rest.indexOf('Request flow')).toBeLessThan(rest.indexOf('Metrics and traces'));
    expect(rest.match(/Kubernetes API requests/g)).toHaveLength(1);
    // the consequences' own evidence is not repeated
    expect(rest).not.toContain('containers with incomplete status');
  });

  it('renders a ready report with its traffic split', () => {
    const report = readyReport();
    const messages = renderReportMessages(report);
    expect(messages[0]!.text).toContain('ISVC_READY');
    expect(allText(messages[1]!)).toContain('Traffic split');
    expectCodesNamed(report, messages);
    expectGolden('ready', messages);
  });

  it('keeps Slack limits for 80 findings with 10,000-line excerpts and says what it cut', () => {
    const report = hugeReport();
    const messages = renderReportMessages(report);
    expectWithinLimits(messages);
    expectCodesNamed(report, messages);
    expect(messages.length).toBeLessThanOrEqual(8);
    const all = messages.map(allText).join('\n');
    expect(all).toContain('left out to fit Slack');
    expect(all).toContain('more finding');
    expect(allText(messages[0]!)).toContain('10000 │ line 10000');
  });
});

describe('renderVerdict', () => {
  it('says what is wrong in words, with the code, the next step and a Re-diagnose button', () => {
    const report = storageUriNotFoundReport();
    report.findings[0] = {
      ...report.findings[0]!,
      next: 'kubectl edit inferenceservice sklearn-iris -n default: set spec.predictor.sklearn.storageUri to a path that exists',
    };
    const v = renderVerdict(report);
    expect(v.text).toMatch(
      /^❌ default\/sklearn-iris is not ready: STORAGE_URI_NOT_FOUND — Model not found at gs:\/\/kfserving-samples\/models\/sklearn\/iris-1\. Next: kubectl edit/,
    );
    expect(allText(v)).toContain('👉 *Next:* kubectl edit inferenceservice sklearn-iris -n default');
    expect(allText(v)).toContain('"action_id":"diagnosis.rerun"');
    expect(allText(v)).toContain(
      '"url":"https://grafana.example.com/d/kserve?var-namespace=default&var-isvc=sklearn-iris"',
    );
    expectGolden('verdict-storage-uri-not-found', v);
  });

  it('says ready', () => {
    expect(renderVerdict(readyReport()).text).toBe('✅ default/sklearn-iris is ready (ISVC_READY)');
  });

  it('says a failed rollout still serves its previous revision (the catalog entry\'s verdict), not just "is not ready"', () => {
    const report = storageUriNotFoundReport();
    report.rootCause = 'ROLLOUT_FAILED';
    report.findings.unshift({
      code: 'ROLLOUT_FAILED',
      severity: 'error',
      subject: 'Revision sklearn-iris-predictor-00002',
      title:
        'Revision sklearn-iris-predictor-00002 failed; sklearn-iris-predictor-00001 still takes 100% of the traffic',
      evidence: [],
      remediation: null,
      next: 'fix what revision sklearn-iris-predictor-00002 failed on, or roll back',
    });
    expect(renderVerdict(report).text).toMatch(
      /^❌ default\/sklearn-iris is not ready, but its previous revision still serves: ROLLOUT_FAILED — Revision sklearn-iris-predictor-00002 failed/,
    );
  });

  it('is never ✅ for a Ready service with an error finding: "Ready, but unreachable"', () => {
    const report = readyReport();
    report.rootCause = 'GATEWAY_MISSING';
    report.findings.unshift({
      code: 'GATEWAY_MISSING',
      severity: 'error',
      subject: 'Gateway kubeflow/kubeflow-gateway',
      title: 'The Istio Gateway kubeflow/kubeflow-gateway does not exist',
      evidence: [],
      remediation: null,
      next: 'kubectl get gateways -A',
    });
    const v = renderVerdict(report);
    expect(v.text).toBe(
      '⚠️ default/sklearn-iris is Ready, but unreachable: GATEWAY_MISSING — The Istio Gateway kubeflow/kubeflow-gateway does not exist. Next: kubectl get gateways -A',
    );
    expect(allText(v)).not.toContain('✅');
  });

  it('is never ✅ for a Ready service with an OOM kill: "Ready, but failing"', () => {
    const report = oomReport();
    report.ready = true;
    expect(renderVerdict(report).text).toMatch(/^⚠️ models\/bert&lt;big&gt; is Ready, but failing: OOM_KILLED/);
  });
});

it("shows the root cause's next step in Slack, with the service's names, once", () => {
  const report = storageUriNotFoundReport();
  const next =
    'kubectl edit inferenceservice sklearn-iris -n default: set spec.predictor.sklearn.storageUri to a path that exists';
  report.findings[0] = { ...report.findings[0]!, next };
  report.findings[1] = { ...report.findings[1]!, next: 'kubectl logs … -c storage-initializer' };
  const text = [renderVerdict(report), ...renderReportMessages(report)].map(allText).join('\n');
  expect(text.split(`👉 *Next:* ${next}`)).toHaveLength(2);
  // a consequence's next step is not repeated under it
  expect(text).not.toContain('-c storage-initializer');
});

it('puts the OOM fact before the Revision conditions, and never ✅ on the first reply', () => {
  const report = oomReport();
  const revision = 'Revision models/bert-predictor-default-00001';
  report.findings[0] = {
    ...report.findings[0]!,
    evidence: [
      { kind: 'condition', ref: revision, text: 'Active=Unknown (Deploying)' },
      {
        kind: 'condition',
        ref: revision,
        text: 'ContainerHealthy=False (ExitCode137): Container failed with: Copying contents of /mnt/models to local\n',
      },
      { kind: 'condition', ref: revision, text: 'ResourcesAvailable=Unknown (Deploying)' },
      {
        kind: 'field',
        ref: 'Pod models/bert-predictor-default-abc',
        container: 'kserve-container',
        text: 'lastState.terminated.reason: OOMKilled, exitCode: 137',
      },
    ],
  };
  const text = allText(renderFirstReply(report));
  expect(text.indexOf('OOMKilled')).toBeGreaterThan(-1);
  expect(text.indexOf('OOMKilled')).toBeLessThan(
    text.indexOf('Active=Unknown') === -1 ? Infinity : text.indexOf('Active=Unknown'),
  );
  expect(text).not.toContain('✅');
});

it('cuts a long root-cause title at a clause in the root message, and shows it whole in the details', () => {
  const report = storageUriNotFoundReport();
  const title = `ResourceQuota compute-resources forbids the pods: exceeded quota: compute-resources, requested: limits.memory=4Gi, used: limits.memory=8Gi, limited: limits.memory=8Gi; ${'and more words '.repeat(12)}end`;
  report.findings[0] = { ...report.findings[0]!, title };
  const verdict = allText(renderVerdict(report));
  expect(verdict).not.toContain('end ·');
  expect(verdict).toMatch(/ … · `STORAGE_URI_NOT_FOUND`/);
  expect(renderDetailReplies(report).map(allText).join('\n')).toContain(title.slice(-40));
});
