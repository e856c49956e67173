import { describe, expect, it } from '@jest/globals';
import { excerptLog, findTracebacks } from '../../../src/logs/log-excerpt.js';

const SEED_STORAGE_LOG = `[I 200517 03:56:19 initializer-entrypoint:13] Initializing, args: src_uri [gs://kfserving-samples/models/sklearn/iris-1] dest_path[ [/mnt/models]
[I 200517 03:56:19 storage:35] Copying contents of gs://kfserving-samples/models/sklearn/iris-1 to local
Traceback (most recent call last):
  File "/storage-initializer/scripts/initializer-entrypoint", line 14, in <module>
    kfserving.Storage.download(src_uri, dest_path)
  File "/usr/local/lib/python3.7/site-packages/kfserving/storage.py", line 48, in download
    Storage._download_gcs(uri, out_dir)
  File "/usr/local/lib/python3.7/site-packages/kfserving/storage.py", line 116, in _download_gcs
    The path or model %s does not exist." % (uri))
RuntimeError: Failed to fetch model. The path or model gs://kfserving-samples/models/sklearn/iris-1 does not exist.
[I 200517 03:40:19 initializer-entrypoint:13] Initializing, args: src_uri [gs://kfserving-samples/models/sklearn/iris] dest_path[ [/mnt/models]
[I 200517 03:40:20 storage:60] Successfully copied gs://kfserving-samples/models/sklearn/iris to /mnt/models
`;

describe('excerptLog', () => {
  it('keeps the traceback from Traceback to the exception line, with line numbers', () => {
    const e = excerptLog(SEED_STORAGE_LOG, { match: /does not exist/ });
    expect(e.lines[0]).toContain('Copying contents');
    expect(e.lines).toContain('Traceback (most recent call last):');
    expect(e.lines.at(-1)).toMatch(/^RuntimeError: Failed to fetch model/);
    expect(e.lineNumbers[0]).toBe(2);
    expect(e.lineNumbers.at(-1)).toBe(10);
    expect(e.lines.join('\n')).not.toContain('Successfully copied');
    expect(e.truncated).toBe(false);
  });

  it('finds a bare exception name (StopIteration) as the end of a traceback', () => {
    const log = [
      'noise',
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in <module>',
      '    model_file = next(path for path in paths)',
      'StopIteration',
      'after',
    ].join('\n');
    expect(findTracebacks(log.split('\n'))).toEqual([[1, 4]]);
  });

  it("keeps an exception message that goes on after a ':' (the lines that decide it), up to the next log record", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "sklearn/tree/_tree.pyx", line 1418, in sklearn.tree._tree._check_node_ndarray',
      'ValueError: node array from the pickle has an incompatible dtype:',
      "- expected: {'names': ['left_child', 'right_child'], 'itemsize': 56}",
      "- got     : [('left_child', '<i8'), ('missing_go_to_left', 'u1')]",
      '2024-05-02 10:11:12 INFO shutting down',
    ].join('\n');
    expect(findTracebacks(log.split('\n'))).toEqual([[0, 4]]);
    expect(excerptLog(log).lines.at(-1)).toBe("- got     : [('left_child', '<i8'), ('missing_go_to_left', 'u1')]");
    // an exception line that does not end in ':' ends the traceback
    expect(findTracebacks(['Traceback (most recent call last):', '  File "x", line 1', 'KeyError: x', 'next'])).toEqual(
      [[0, 2]],
    );
  });

  it('cuts a long traceback to the limit and says so', () => {
    const frames = Array.from({ length: 60 }, (_, i) => `  File "f${i}.py", line ${i}, in g\n    call()`).join('\n');
    const log = `start\nTraceback (most recent call last):\n${frames}\nValueError: boom\n`;
    const e = excerptLog(log, { maxLines: 20 });
    expect(e.lines.length).toBeLessThanOrEqual(20);
    expect(e.lines.at(-1)).toBe('ValueError: boom');
    expect(e.truncated).toBe(true);
  });

  it('falls back to error lines when there is no traceback', () => {
    const e = excerptLog('ok\nstill ok\nERROR failed to bind port 8080\nok\n');
    expect(e.lines).toEqual(['ERROR failed to bind port 8080']);
    expect(e.lineNumbers).toEqual([3]);
  });
});

describe('excerptLog repeats', () => {
  it('keeps the first and last of a run of lines of one shape', () => {
    const log = Array.from(
      { length: 8 },
      (_, i) => `2023-11-08T08:2${i}:00Z INFO Waiting for shard to be ready... rank=0`,
    ).join('\n');
    const e = excerptLog(log, { match: /Waiting/ });
    expect(e.lineNumbers).toEqual([1, 8]);
    expect(e.truncated).toBe(true);
  });
});

describe('excerptLog redaction', () => {
  it('masks the body of a private key even when only body lines are picked (redacts the whole log first)', () => {
    const body = Array.from(
      { length: 6 },
      (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vx1x9l2Q${i}z9Y3kT`,
    );
    const log = ['-----BEGIN PRIVATE KEY-----', ...body, '-----END PRIVATE KEY-----'].join('\n');
    const e = excerptLog(log);
    // the tail (no error line): four body lines, folded as repeats of one shape, and END
    expect(e.lineNumbers).toEqual([4, 7, 8]);
    expect(e.lines).toEqual(['[REDACTED:private-key]', '[REDACTED:private-key]', '-----END PRIVATE KEY-----']);
  });

  it('cuts long lines after redaction, so a cut never leaves the start of a secret', () => {
    const token = `glpat-${'Ab3'.repeat(8)}`;
    const line = `ERROR ${'x'.repeat(60)} ${token} ${'y'.repeat(60)}`;
    const e = excerptLog(line, { maxLineLength: 80 });
    expect(e.lines).toEqual([`ERROR ${'x'.repeat(60)} glpat-…`]);
    expect(e.lines[0]).not.toContain('Ab3');
  });
});
