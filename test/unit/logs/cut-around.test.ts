import { describe, expect, it } from '@jest/globals';
import { cutAround } from '../../../src/logs/cut-around.js';
import { reduceObjects } from '../../../src/logs/reduce-objects.js';

const around = (line: string, part: string, max: number) => {
  const start = line.indexOf(part);
  return cutAround(line, max, { start, end: start + part.length });
};

describe('cutAround', () => {
  it('leaves a line that fits alone', () => {
    expect(cutAround('short line', 20, { start: 0, end: 5 })).toBe('short line');
  });

  it('keeps the deciding part whole, with context on both sides and "…" where it cut', () => {
    const line = `${'x '.repeat(100)}ValueError: bad dtype ${'y '.repeat(100)}`;
    const out = around(line, 'ValueError: bad dtype', 80);
    expect(out.length).toBeLessThanOrEqual(80);
    expect(out).toContain('ValueError: bad dtype');
    expect(out.startsWith('…')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
  });

  it('cuts between tokens: not inside a quoted string, a number or a bracketed group within reach', () => {
    const line =
      "2024-01-01 ERROR load failed: {'names': ['a', 'b'], 'n': 3} while reading 123456789 rows from '/mnt/models/model file.pkl' in the loader [x, y, z] done";
    for (let max = 40; max < line.length; max += 1) {
      const out = around(line, 'load failed', max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out).toContain('load failed');
      const body = out.replace(/^…|…$/g, '');
      // every quote and bracket opened in what is shown is closed in it
      expect((body.match(/'/g) ?? []).length % 2).toBe(0);
      expect((body.match(/\[/g) ?? []).length).toBe((body.match(/\]/g) ?? []).length);
      expect((body.match(/\{/g) ?? []).length).toBe((body.match(/\}/g) ?? []).length);
      // and it starts and ends between words of the line
      const at = line.indexOf(body);
      expect(at === 0 || /\s/.test(line[at - 1]!)).toBe(true);
      expect(at + body.length === line.length || /\s/.test(line[at + body.length]!)).toBe(true);
    }
  });

  it('keeps the head of a deciding part longer than the limit, cut between words', () => {
    const line = `prefix ${'word '.repeat(40)}end`;
    const out = cutAround(line, 50, { start: 7, end: line.length });
    expect(out.startsWith('…word word')).toBe(true);
    expect(out.endsWith('word…')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(50);
  });

  it('never cuts a redaction marker', () => {
    const line = `token=[REDACTED:jwt]${'a'.repeat(50)} denied the request ${'b'.repeat(50)}`;
    for (let max = 30; max < 80; max += 3) {
      const out = around(line, 'denied the request', max);
      expect(out).toContain('denied the request');
      expect(out.replace('[REDACTED:jwt]', '')).not.toMatch(/\[RED|ACTED|jwt\]/);
    }
  });

  it('without a deciding part keeps the end of the line', () => {
    expect(cutAround(`${'a '.repeat(30)}the end`, 20)).toMatch(/^….*the end$/);
  });
});

describe('reduceObjects', () => {
  it('keeps a short object whole', () => {
    const line = "config: {'a': 1, 'b': [1, 2]} loaded";
    expect(reduceObjects(line)).toBe(line);
  });

  it('reduces a long object to its deciding entries and the keys of the others, cutting no token', () => {
    const line = `ERROR request failed: {"stack": "${'frame '.repeat(20)}", "error": "model sklearn-iris not found", "names": ["left_child", "right_child", "feature", "threshold"], "code": 404}`;
    expect(reduceObjects(line)).toBe(
      'ERROR request failed: {"stack": "…", "error": "model sklearn-iris not found", "names": […], "code": 404}',
    );
  });

  it('reduces a Python dict repr the same way', () => {
    const line =
      "- expected: {'names': ['left_child', 'right_child', 'feature', 'threshold', 'impurity'], 'formats': ['<i8', '<i8', '<i8', '<f8', '<f8'], 'itemsize': 56}";
    expect(reduceObjects(line)).toBe("- expected: {'names': […], 'formats': […], 'itemsize': 56}");
  });
});
