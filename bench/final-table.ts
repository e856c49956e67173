/** The table printed at the end of `npm run bench`: row, figure, anchor, ratio, target, met?. */
import type { TableLine } from './bench-row.js';

const HEADERS = ['row', 'figure', 'anchor', 'ratio', 'target', 'met?'];

const metText = (met: boolean | null) => (met === null ? 'n/a' : met ? 'yes' : 'NO');

export function finalTable(lines: TableLine[]): string {
  const cells = lines.map((l) => [l.row, l.figure, l.anchor, l.ratio, l.target, metText(l.met)]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const format = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [format(HEADERS), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(format)].join('\n');
}
