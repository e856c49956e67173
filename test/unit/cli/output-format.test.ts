/** `-o json` and `-o yaml` print cluster text terminal-safe like the text report: the same value, controls as \uXXXX escapes. */
import { describe, expect, it } from '@jest/globals';
import { parse as parseYaml } from 'yaml';
import { jsonToYaml, printableJson } from '../../../src/cli/output-format.js';
import type { Report } from '../../../src/findings/types.js';
import { renderJsonReport } from '../../../src/render/json-report.js';
import { storageUriNotFoundReport } from '../render/report-fixtures.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const C1_CSI = '\u009b31m';
const BIDI = 'admin\u202e\u2066txt.exe';

function hostileReport(): Report {
  const report = storageUriNotFoundReport();
  const [first] = report.findings;
  first!.title = `Model not found ${C1_CSI}at gs://x \u001b[2J`;
  first!.subject = `Pod default/${BIDI}`;
  first!.evidence.push({ kind: 'event', ref: 'Pod default/p\u0085', text: `Failed:\n${BIDI}\u007f\r\nsecond\u2069` });
  return report;
}

describe('structured outputs and terminal control sequences', () => {
  const json = renderJsonReport(hostileReport());

  it('-o json escapes C1 controls, DEL and bidirectional overrides (JSON.stringify leaves them raw) and keeps the value', () => {
    expect(json).toMatch(RAW_CONTROL);
    const printed = printableJson(json);
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(printed).toContain('Model not found \\u009b31mat gs://x \\u001b[2J');
    expect(printed).toContain('admin\\u202e\\u2066txt.exe');
    expect(JSON.parse(printed)).toEqual(JSON.parse(json));
  });

  it('-o yaml writes such strings double-quoted with escapes, also a multi-line one, and keeps the value', () => {
    const printed = jsonToYaml(json);
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(printed).toContain('"Pod default/admin\\u202e\\u2066txt.exe"');
    expect(printed).toContain('\\u009b31m');
    expect(parseYaml(printed)).toEqual(JSON.parse(json));
  });

  it('leaves clean strings as they were printed before', () => {
    const clean = renderJsonReport(storageUriNotFoundReport());
    expect(printableJson(clean)).toBe(clean);
    expect(jsonToYaml(clean)).not.toContain('"title": ');
    expect(jsonToYaml(clean)).toMatch(/^ {4}title: [^"]/m);
  });
});
