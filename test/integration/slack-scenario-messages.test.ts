/**
 * The Slack messages of every scenario, read as an on-call engineer reads them: the root message
 * never shows ✅ while an error finding exists; the first reply holds the scenario's deciding line
 * whole (for a line too long for Slack, its `decidingPart`); every error root cause has a next step;
 * the root message plus the first reply fit one screen (≤ 15 lines as Slack wraps at ~80
 * characters); every message keeps Slack's limits. Prints the screen-lines report.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { diagnose } from '../../src/app/diagnoser.js';
import { diagnosisConfigFrom } from '../../src/cli/diagnose-command.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import {
  messageChars,
  renderDetailReplies,
  renderFirstReply,
  renderVerdict,
  screenLines,
  SCREEN_LINES,
  SLACK_LIMITS,
} from '../../src/render/slack/index.js';
import type { KubeObject } from '../../src/kube/schemas.js';
import { rolloutView } from '../../src/remediation/rollout-view.js';
import { renderRolloutView } from '../../src/render/slack/render-rollout.js';
import { startSimulator } from '../../src/simulator/simulator.js';
import type { SlackMessage } from '../../src/slack/slack-message.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { listScenarios } from '../support/scenarios.js';

const scenarios = listScenarios();
const rows: string[] = [];

/** What a message says, with mrkdwn's escapes undone (the characters a person reads). */
const said = (m: SlackMessage) =>
  [
    m.text,
    ...m.blocks.flatMap((b) =>
      b.type === 'section' || b.type === 'header'
        ? [b.text.text]
        : b.type === 'context'
          ? b.elements.map((e) => e.text)
          : [],
    ),
  ]
    .join('\n')
    .replace(/\u200b/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function expectWithinLimits(m: SlackMessage): void {
  expect(m.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocksPerMessage);
  expect(messageChars(m)).toBeLessThanOrEqual(SLACK_LIMITS.messageChars);
  expect(m.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
  expect(m.text.trim()).not.toBe('');
  for (const b of m.blocks) {
    if (b.type === 'section') expect(b.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    if (b.type === 'context') expect(b.elements.length).toBeLessThanOrEqual(SLACK_LIMITS.contextElements);
    if (b.type === 'actions') expect(b.elements.length).toBeLessThanOrEqual(25);
  }
}

/** A partial count ("1/2 ready"), a failing or missing item, "not ready": never on a line with ✅. */
const NOT_OK = /\b(\d+)\/(\d+) (?:pods? )?ready\b|\((?:failing|missing)[^)]*\)|\bnot ready\b|\bfail(?:s|ed|ing)\b/;
/** Words that stand for a value the bot did not have. */
const PLACEHOLDER = /\bat none\b|\bof none\b|\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]|<none>/;

function partial(line: string): boolean {
  const m = NOT_OK.exec(line);
  if (!m) return false;
  return m[1] === undefined || m[1] !== m[2];
}

/** No ✅ next to something failing or partial; no placeholder words; no button named that the message does not carry. */
function expectStaysTrue(name: string, m: SlackMessage): void {
  const text = said(m);
  const ticked = text.split('\n').filter((l) => l.includes('✅') && partial(l));
  expect({ name, tickedButNotOk: ticked }).toEqual({ name, tickedButNotOk: [] });
  expect({ name, placeholder: PLACEHOLDER.exec(text)?.[0] ?? null }).toEqual({ name, placeholder: null });
  const buttons = m.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
  const labels = buttons.map((b) => ('text' in b && b.text ? b.text.text : '')).join(' ');
  // "approve the proposed …" / "click Re-diagnose": only where that button is in the same message
  for (const [word, label] of [
    [/\bapprove\b/i, /Approve|Raise|Roll back|Promote|Restart|Skip|Set/],
    [/\bRe-diagnose\b/, /Re-diagnose/],
  ] as const)
    if (word.test(text.replace(/\bapprovers?\b/gi, '')))
      expect({ name, mentions: String(word), button: label.test(labels) }).toEqual({
        name,
        mentions: String(word),
        button: true,
      });
}

/** The rollout message of a service whose canary is not ready: Promote is never the primary button. */
function expectRolloutButtonsSafe(name: string, objects: readonly unknown[]): void {
  const isvcs = objects.filter((o) => (o as { kind?: string }).kind === 'InferenceService');
  for (const isvc of isvcs) {
    const view = rolloutView(isvc as KubeObject);
    if (!view.revisions.some((r) => r.role === 'canary' && r.ready === false)) continue;
    const message = renderRolloutView({ namespace: 'ns', name: 'n' }, view, 'U0ASKER');
    const elements = message.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    const style = (id: string) => {
      const e = elements.find((x) => 'action_id' in x && x.action_id === id);
      return e && 'style' in e ? e.style : undefined;
    };
    expect({ name, promote: style('rollout.promote') ?? 'plain' }).not.toEqual({ name, promote: 'primary' });
    expect({ name, rollback: style('rollout.rollback') }).toEqual({ name, rollback: 'primary' });
  }
}

describe('Slack messages over every scenario', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (name, scenario) => {
    const snapshot = await loadSnapshot(scenario.dir);
    const simulator = await startSimulator({ snapshot, port: 0 });
    try {
      const config = snapshot.config !== undefined ? diagnosisConfigFrom(snapshot.config, 'config.yaml') : {};
      const report = await diagnose(kubeConfigForServer(simulator.url), scenario.expect.target, {
        config,
        now: () => new Date('2024-06-01T00:00:00Z'),
      });
      const verdict = renderVerdict(report);
      const first = renderFirstReply(report);
      const details = renderDetailReplies(report);
      for (const m of [verdict, first, ...details]) expectWithinLimits(m);
      const hasError = report.findings.some((f) => f.severity === 'error');
      if (hasError)
        expect({ name, verdict: verdict.text.startsWith('✅') || said(verdict).includes('✅') }).toEqual({
          name,
          verdict: false,
        });
      const root = report.rootCause ? report.findings[0]! : undefined;
      let decided = '-';
      if (root?.severity === 'error') {
        expect({ name, next: /Next:/.test(said(verdict)) }).toEqual({ name, next: true });
        const { decidingLine, decidingPart } = scenario.expect;
        if (decidingLine) {
          if (decidingPart) expect(decidingLine).toContain(decidingPart);
          const wanted = decidingPart ?? decidingLine;
          // a structured (JSON) log line is shown as its message and error, its quotes unescaped
          const shown = said(first).includes(wanted) || said(first).includes(wanted.replace(/\\"/g, '"'));
          expect({ name, decidingLineInFirstReply: shown }).toEqual({ name, decidingLineInFirstReply: true });
          decided = decidingPart ? 'part' : 'whole';
        }
      }
      for (const m of [verdict, first, ...details]) expectStaysTrue(name, m);
      if (root?.severity === 'error')
        expect({ name, decidingLine: scenario.expect.decidingLine !== undefined }).toEqual({
          name,
          decidingLine: true,
        });
      expectRolloutButtonsSafe(name, snapshot.objects);
      const lines = screenLines(verdict) + screenLines(first);
      rows.push(
        `${name.padEnd(70)} ${String(screenLines(verdict)).padStart(4)} ${String(screenLines(first)).padStart(6)} ${String(lines).padStart(6)}  ${decided}`,
      );
      expect({ name, lines: lines <= SCREEN_LINES }).toEqual({ name, lines: true });
    } finally {
      await simulator.close();
    }
  });
});

afterAll(() => {
  const totals = rows.map((r) => Number(r.slice(83, 89)));
  const header = `${'scenario'.padEnd(70)} root  first  total  deciding line`;
  // the report the issue asks for: lines of the verdict and the first reply as Slack wraps them
  process.stdout.write(
    `\nScreen lines (root message + first reply, ≤ ${SCREEN_LINES}):\n${header}\n${rows.sort().join('\n')}\nmax ${Math.max(...totals)}, mean ${(totals.reduce((a, b) => a + b, 0) / Math.max(1, totals.length)).toFixed(1)} over ${rows.length} scenarios\n`,
  );
});
