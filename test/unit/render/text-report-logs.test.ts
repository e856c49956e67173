/** A consequence quoting lines of a log the root cause already showed: those lines are pointed at, not printed twice. */
import { expect, it } from '@jest/globals';
import type { Evidence, Report } from '../../../src/findings/types.js';
import { renderTextReport } from '../../../src/render/text-report.js';
import { storageUriNotFoundReport } from './report-fixtures.js';

it('prints each log line once: a consequence shows only the lines not shown above, and says how many were', () => {
  const report: Report = storageUriNotFoundReport();
  const rootLog = report.findings[0]!.evidence.find((e): e is Evidence => e.kind === 'log')!;
  const lineNumbers = [1, ...rootLog.lineNumbers!];
  report.findings.push({
    ...report.findings[0]!,
    code: 'STORAGE_INIT_FAILED',
    title: 'The storage-initializer init container fails',
    consequenceOf: 'STORAGE_URI_NOT_FOUND',
    evidence: [{ ...rootLog, lineNumbers, excerpt: ['Copying contents of gs://x to local', ...rootLog.excerpt!] }],
  });
  const out = renderTextReport(report);
  const last = rootLog.excerpt!.at(-1)!;
  expect(out.split(last)).toHaveLength(2); // once
  expect(out).toContain(`${rootLog.lineNumbers!.length} lines shown above; also:`);
  expect(out).toMatch(/^ {6}1 Copying contents of gs:\/\/x to local$/m);
});

it('prints a multi-line note (an RBAC rule) with its own indentation, so it pastes as valid YAML, and no blank lines', async () => {
  const { parse } = await import('yaml');
  const report: Report = storageUriNotFoundReport();
  const rule = '- apiGroups: [""]\n  resources: ["pods/log"]\n  verbs: ["get"]';
  report.findings[0]!.evidence.push(
    { kind: 'note', ref: 'RBAC rule that would allow it', text: rule },
    { kind: 'condition', ref: 'Pod default/p', text: 'Ready=False: first\n\n  second\n' },
  );
  const lines = renderTextReport(report).split('\n');
  const at = lines.indexOf('    - apiGroups: [""]');
  const pasted = lines
    .slice(at, at + 3)
    .map((l) => l.slice(4))
    .join('\n');
  expect(pasted).toBe(rule);
  expect(parse(pasted)).toEqual([{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }]);
  const cond = lines.findIndex((l) => l.startsWith('    condition: Ready=False: first'));
  expect(lines[cond + 1]).toBe('                 second'); // the blank line between them left out
  expect(lines.filter((l) => /^\s+$/.test(l))).toEqual([]); // no whitespace-only lines
});

it('prints a JSON controller line as its level, message and error, and a retried line once with the numbers of its repeats', () => {
  const report: Report = storageUriNotFoundReport();
  const line = (ts: number) =>
    JSON.stringify({
      level: 'error',
      ts,
      msg: 'Reconciler error',
      error: 'admission webhook "pilot.validation.istio.io" denied the request',
      stacktrace:
        'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller).reconcileHandler\n\t/go/x.go:258',
    });
  report.findings[0]!.evidence = [
    {
      kind: 'log',
      ref: 'Pod kserve/ctl-0',
      container: 'manager',
      lineNumbers: [3, 4, 51],
      excerpt: [line(1), 'plain', line(2)],
    },
  ];
  const out = renderTextReport(report);
  expect(out).toMatch(
    /^ {6} 3 error: Reconciler error: admission webhook "pilot.validation.istio.io" denied the request {2}\(again at line 51\)$/m,
  );
  expect(out).toMatch(/^ {6} 4 plain$/m);
  expect(out).not.toContain('stacktrace');
  expect(out).not.toContain('reconcileHandler');
  expect(out).not.toMatch(/^ {6}51 /m);
});

it('heads a report with the verdict: a stopped service is stopped, one not ready with no cause is not called ready', () => {
  const stopped: Report = {
    ...storageUriNotFoundReport(),
    ready: false,
    rootCause: null,
    findings: [
      {
        code: 'ISVC_STOPPED',
        severity: 'info',
        subject: 'InferenceService default/m',
        title: 'm is stopped on purpose',
        evidence: [],
        remediation: null,
      },
    ],
  };
  const { namespace, name } = stopped.target;
  expect(renderTextReport(stopped).split('\n')[0]).toBe(`${namespace}/${name}: stopped (on purpose, not broken)`);
  const unexplained: Report = { ...stopped, findings: [] };
  expect(renderTextReport(unexplained).split('\n')[0]).toBe(`${namespace}/${name}: not ready, and no check found why`);
});
