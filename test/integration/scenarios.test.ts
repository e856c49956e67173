/**
 * Every scenario folder is a test: the snapshot is served by the cluster simulator over HTTP and
 * diagnosed through @kubernetes/client-node, exactly as a live cluster would be. Its advice is
 * judged too: the root cause's next step names the terms written from the report's fix
 * (`expect.yaml` `next` / `nextNot`), and no next step of the report has an unfilled placeholder, a
 * field path this InferenceService does not have or a generic phrase outside a labelled fallback.
 * Afterwards, every code a registered playbook emits must have been produced by at least one scenario.
 */
import { describe, expect, it } from '@jest/globals';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { diagnose } from '../../src/app/diagnoser.js';
import { diagnosisConfigFrom } from '../../src/cli/diagnose-command.js';
import { judgeAdvice } from '../../src/findings/next-step-quality.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { renderJsonReport } from '../../src/render/json-report.js';
import { renderTextReport } from '../../src/render/text-report.js';
import { startSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { readInferenceService } from '../support/read-inference-service.js';
import { listScenarios } from '../support/scenarios.js';

const scenarios = listScenarios();
const produced = new Set<string>();

describe('scenarios', () => {
  it('exist', () => {
    expect(scenarios.length).toBeGreaterThan(20);
  });

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const snapshot = await loadSnapshot(scenario.dir);
    const simulator = await startSimulator({ snapshot, port: 0 });
    try {
      const config = snapshot.config !== undefined ? diagnosisConfigFrom(snapshot.config, 'config.yaml') : {};
      const report = await diagnose(kubeConfigForServer(simulator.url), scenario.expect.target, {
        config,
        now: () => new Date('2024-06-01T00:00:00Z'),
      });
      const codes = report.findings.map((f) => f.code);
      for (const c of codes) produced.add(c);
      const summary = `${scenario.name}: got ${codes.join(', ')}`;
      for (const code of scenario.expect.must)
        expect({ summary, has: codes.includes(code as never) }).toEqual({ summary, has: true });
      for (const code of scenario.expect.mustNot)
        expect({ summary, forbidden: code, has: codes.includes(code as never) }).toEqual({
          summary,
          forbidden: code,
          has: false,
        });
      if (report.rootCause)
        expect({ summary, next: Boolean(report.findings[0]!.next) }).toEqual({ summary, next: true });
      if (scenario.expect.rootCause !== undefined)
        expect({ summary, rootCause: report.rootCause }).toEqual({ summary, rootCause: scenario.expect.rootCause });
      // the root cause carries its deciding line whole among its evidence, and a next step
      const root = report.rootCause ? report.findings[0]! : undefined;
      if (root && scenario.expect.decidingLine) {
        const shown = root.evidence.flatMap((e) => [e.text ?? '', ...(e.excerpt ?? [])]);
        expect({ summary, decidingLineShown: shown.some((l) => l.includes(scenario.expect.decidingLine!)) }).toEqual({
          summary,
          decidingLineShown: true,
        });
      }
      if (root?.severity === 'error') expect({ summary, next: Boolean(root.next) }).toEqual({ summary, next: true });
      // titles read as sentences: no raw JSON log record, no repeated refusal head, the deciding part kept
      const noisyTitles = report.findings
        .map((f) => f.title)
        .filter(
          (t) => /\{"(?:level|ts|msg)"|Error creating: pods "[^"]*" is forbidden/.test(t) && !/^Error creating/.test(t),
        );
      expect({ summary, noisyTitles }).toEqual({ summary, noisyTitles: [] });
      const outputs = [renderJsonReport(report), renderTextReport(report)];
      for (const secret of scenario.expect.mustNotContain) for (const out of outputs) expect(out).not.toContain(secret);
      // the diagnosis reads what the evidence needs, and no more
      expect(report.stats.apiRequests).toBeLessThanOrEqual(20);
      expect(report.stats.apiRequests).toBe(simulator.requests.length);
      // the advice: what the report's fix names, and nothing unusable in any next step
      const isvc = await readInferenceService(simulator.url, report);
      const advice = judgeAdvice(report, scenario.expect.next, scenario.expect.nextNot, isvc);
      const judged = {
        summary,
        next: advice.text,
        missing: advice.missing,
        wrong: advice.wrong,
        problems: advice.problems,
      };
      expect(judged).toEqual({ summary, next: advice.text, missing: [], wrong: [], problems: [] });
    } finally {
      await simulator.close();
    }
  });

  // runs after the scenarios above (tests in a file run in order)
  it('every code a playbook emits is produced by some scenario', () => {
    const emitted = new Set(ALL_PLAYBOOKS.flatMap((p) => p.emits));
    expect([...emitted].filter((c) => !produced.has(c))).toEqual([]);
  });
});
