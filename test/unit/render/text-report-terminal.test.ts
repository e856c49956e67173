/** The text report prints cluster data so that terminal control sequences in it are shown, not obeyed. */
import { describe, expect, it } from '@jest/globals';
import type { Report } from '../../../src/findings/types.js';
import { renderTextReport } from '../../../src/render/text-report.js';
import { terminalSafe } from '../../../src/render/terminal-safe.js';
import { storageUriNotFoundReport } from './report-fixtures.js';

const ESC = '\u001b';
const CLEAR_SCREEN = `${ESC}[2J${ESC}[H`;
const OSC8_LINK = `${ESC}]8;;https://evil.example/x${ESC}\\click me${ESC}]8;;${ESC}\\`;
const TITLE_BEL = `${ESC}]0;pwned\u0007`;
const C1_CSI = '\u009b31m';
const BIDI = 'admin\u202e\u2066txt.exe';

function hostileReport(): Report {
  const report = storageUriNotFoundReport();
  const [first] = report.findings;
  first!.title = `Model not found ${CLEAR_SCREEN}at gs://x`;
  first!.subject = `Pod default/${C1_CSI}p`;
  first!.evidence.push({ kind: 'event', ref: `Pod default/p${TITLE_BEL}`, text: `Failed: ${OSC8_LINK}\nsecond\rline` });
  first!.evidence[1]!.excerpt!.push(`progress 10%\r${BIDI}\u0000\u007f`);
  first!.evidence[1]!.lineNumbers!.push(10);
  return report;
}

describe('text report and terminal control sequences', () => {
  it.each([false, true])(
    'prints no control character from the cluster (color %s); only its own colour codes',
    (color) => {
      const out = renderTextReport(hostileReport(), { color });
      const withoutOwnColours = out.replace(/\u001b\[(?:\d+)m/g, '');
      expect(withoutOwnColours).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(out).toContain('Model not found ^[[2J^[[Hat gs://x');
      expect(out).toContain('^[]8;;https://evil.example/x^[\\click me^[]8;;^[\\');
      expect(out).toContain('Pod default/p^[]0;pwned^G');
      expect(out).toContain('Pod default/<U+009B>31mp');
      expect(out).toContain('progress 10%^Madmin<U+202E><U+2066>txt.exe^@^?');
    },
  );

  it('keeps newlines and tabs, and treats \\r\\n as a newline', () => {
    expect(terminalSafe('a\tb\r\nc\nd')).toBe('a\tb\nc\nd');
  });

  it('does not change the report it was given', () => {
    const report = hostileReport();
    renderTextReport(report);
    expect(report.findings[0]!.title).toContain(CLEAR_SCREEN);
  });
});
