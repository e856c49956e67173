import { FINDING_CODES } from '../../../src/findings/catalog.js';
import type { Report } from '../../../src/findings/types.js';
import { messageChars, renderReportMessages, renderVerdict, SLACK_LIMITS } from '../../../src/render/slack/index.js';
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
/** Codes a message reports: finding headings are "*`CODE`*" or "Root cause: `CODE`", the overflow summary lists "`CODE`". */
const codesIn = (m: SlackMessage) => {
  const text = allText(m);
  const summary = text.includes('more finding');
  return FINDING_CODES.filter((c) => text.includes(`*\`${c}\`*`) || text.includes(`Root cause: \`${c}\``) || (summary && text.includes(`\`${c}\``)));
};

/** Every finding's code appears in the text (fallback and blocks) of the message that reports it. */
function expectCodesNamed(report: Report, messages: SlackMessage[]): void {
  const reported = new Set<string>();
  for (const m of messages) {
    for (const code of codesIn(m)) {
      if (report.findings.some((f) => f.code === code)) {
        expect(m.text).toContain(code);
        reported.add(code);
      }
    }
  }
  for (const f of report.findings) expect(reported).toContain(f.code);
}

describe('renderReportMessages', () => {
  it('puts the root cause first, with its code, evidence and numbered log excerpt', () => {
    const report = storageUriNotFoundReport();
    const messages = renderReportMessages(report);
    const first = messages[0]!;
    expect(first.text).toContain('STORAGE_URI_NOT_FOUND');
    const firstText = allText(first);
    expect(firstText).toContain('Root cause: `STORAGE_URI_NOT_FOUND`');
    expect(firstText).toContain('```');
    expect(firstText).toContain('9 │ RuntimeError: Failed to fetch model.');
    expect(firstText).toContain('storage-initializer');
    expect(firstText).not.toContain('STORAGE_INIT_FAILED');
    expectWithinLimits(messages);
    expectCodesNamed(report, messages);
    expectGolden('storage-uri-not-found', messages);
  });

  it('marks consequences, shows hops with their state and links', () => {
    const messages = renderReportMessages(storageUriNotFoundReport());
    const rest = messages.slice(1).map(allText).join('\n');
    expect(rest).toContain('consequence of `STORAGE_URI_NOT_FOUND`');
    expect(rest).toMatch(/⚠️ Revision default\/sklearn-iris-predictor-default-00001 — not ready _\(failing\)_/);
    expect(rest).toContain('✅ Gateway knative-serving/knative-ingress-gateway');
    expect(rest).toContain('<https://grafana.example.com/d/kserve?var-namespace=default&var-isvc=sklearn-iris|Grafana>');
    expect(rest.indexOf('Other findings')).toBeLessThan(rest.indexOf('Request flow'));
    expect(rest.indexOf('Request flow')).toBeLessThan(rest.indexOf('Metrics and traces'));
  });

  it('renders a ready report with its traffic split', () => {
    const report = readyReport();
    const messages = renderReportMessages(report);
    expect(messages[0]!.text).toContain('ISVC_READY');
    expect(allText(messages[1]!)).toContain('Traffic split');
    expectCodesNamed(report, messages);
    expectGolden('ready', messages);
  });

  it('escapes mrkdwn and code fences, and shows a remediation diff', () => {
    const report = oomReport();
    const messages = renderReportMessages(report);
    const text = allText(messages[0]!);
    expect(text).toContain('&lt;tokenizer&gt;');
    expect(text).not.toContain('```weights```');
    expect(text).toContain('+          memory: 2Gi');
    expect(text).toContain('needs approval');
    expectCodesNamed(report, messages);
    expectGolden('oom-killed', messages);
  });

  it('keeps Slack limits for 80 findings with 10,000-line excerpts and says what it cut', () => {
    const report = hugeReport();
    const started = Date.now();
    const messages = renderReportMessages(report);
    expect(Date.now() - started).toBeLessThan(2000);
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
  it('is one line naming the root cause', () => {
    const v = renderVerdict(storageUriNotFoundReport());
    expect(v.text).toBe('❌ default/sklearn-iris is not ready: STORAGE_URI_NOT_FOUND — Model not found at gs://kfserving-samples/models/sklearn/iris-1 (+2 related errors in the thread)');
    expect(v.text).not.toContain('\n');
    expect(v.blocks).toHaveLength(1);
    expectGolden('verdict-storage-uri-not-found', v);
  });

  it('says ready', () => {
    expect(renderVerdict(readyReport()).text).toBe('✅ default/sklearn-iris is ready (ISVC_READY)');
  });
});

it("shows the root cause's next step in Slack, with the service's names", () => {
  const report = storageUriNotFoundReport();
  const next = 'kubectl edit inferenceservice sklearn-iris -n default: set spec.predictor.sklearn.storageUri to a path that exists';
  report.findings[0] = { ...report.findings[0]!, next };
  report.findings[1] = { ...report.findings[1]!, next: 'kubectl logs … -c storage-initializer' };
  const text = renderReportMessages(report).map(allText).join('\n');
  expect(text).toContain(`👉 *Next:* ${next}`);
  // a consequence's next step is not repeated under it
  expect(text).not.toContain('-c storage-initializer');
});
