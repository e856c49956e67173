/**
 * Picks the lines of a container log that explain a failure: a Python traceback from `Traceback`
 * to the exception line, lines that match what the playbook looks for, error lines. Keeps at most
 * `maxLines` lines, with their 1-based line numbers, and says when it had to leave some out.
 *
 * The whole log is redacted first, then lines are picked and cut to `maxLineLength`: a key's body
 * lines are masked even when the BEGIN line is not picked, and a cut never leaves part of a secret.
 */
import { cutLine } from './cut-line.js';
import { redactLines } from './redact.js';

export interface LogExcerpt {
  lines: string[];
  lineNumbers: number[];
  truncated: boolean;
}

export interface ExcerptOptions {
  /** Lines the caller is looking for (e.g. probe lines with a status code); they are always kept first. */
  match?: RegExp;
  maxLines?: number;
  /** Longer lines are cut (after redaction) to this many characters, an ellipsis included (default 500). */
  maxLineLength?: number;
  /** When nothing matches, fall back to generic error lines and tracebacks (default true). */
  fallbackToErrors?: boolean;
}

const TRACEBACK_START = /^\s*Traceback \(most recent call last\):/;
const ERROR_LINE =
  /\b(error|exception|fatal|panic|failed|failure|killed|denied|forbidden|refused|cannot|could not|unable to)\b|^\s*E\d{4}|"level":"(error|fatal)"/i;

export function splitLogLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Index ranges [start, end] (inclusive) of the Python tracebacks in a log, in order. */
export function findTracebacks(lines: readonly string[]): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!TRACEBACK_START.test(lines[i]!)) continue;
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      end = j;
      if (line.startsWith(' ') || line.startsWith('\t') || TRACEBACK_START.test(line)) continue;
      // the exception line, e.g. "RuntimeError: ..." or "StopIteration"; chained exceptions continue
      const next = lines[j + 1] ?? '';
      if (/^During handling of the above exception|^The above exception was the direct cause/.test(next)) continue;
      if (/^(During handling|The above exception)/.test(line)) continue;
      end = messageEnd(lines, j);
      break;
    }
    blocks.push([i, end]);
    i = end;
  }
  return blocks;
}

/** A line that starts a new log record (a timestamp, a bracketed level, a level word), not a message's continuation. */
const RECORD_START =
  /^(?:\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|\[[A-Z]\s|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|FATAL|CRITICAL)\b|[IWEF]\d{4}\s)/;

/**
 * Where an exception's message ends: an exception line that ends in ':' continues on the lines after
 * it (`ValueError: … incompatible dtype:` then `- expected: …`, `- got: …`), which decide the failure.
 */
function messageEnd(lines: readonly string[], exception: number): number {
  if (!/:\s*$/.test(lines[exception]!)) return exception;
  let end = exception;
  for (let k = exception + 1; k < lines.length && k <= exception + 6; k++) {
    const next = lines[k]!;
    if (next.trim() === '' || TRACEBACK_START.test(next) || RECORD_START.test(next)) break;
    end = k;
  }
  return end;
}

export function excerptLog(text: string, options: ExcerptOptions = {}): LogExcerpt {
  const maxLines = options.maxLines ?? 20;
  const lines = redactLines(splitLogLines(text));
  const tracebacks = findTracebacks(lines);
  const matched = options.match ? lines.flatMap((l, i) => (options.match!.test(l) ? [i] : [])) : [];

  const picked = new Set<number>();
  let truncated = false;
  const take = (indexes: number[]) => {
    for (const i of indexes) {
      if (picked.has(i)) continue;
      if (picked.size >= maxLines) {
        truncated = true;
        return;
      }
      picked.add(i);
    }
  };

  // The traceback that holds a matched line, else the last one (the most recent crash).
  const relevant =
    tracebacks.find(([s, e]) => matched.some((m) => m >= s && m <= e)) ??
    (matched.length === 0 ? tracebacks[tracebacks.length - 1] : undefined);
  if (relevant) take(tracebackLines(lines, relevant, Math.min(maxLines, 16)));
  if (relevant && relevant[1] - relevant[0] + 1 > Math.min(maxLines, 16)) truncated = true;
  take(matched.slice(-maxLines));
  if (picked.size === 0 && options.fallbackToErrors !== false) {
    take(lines.flatMap((l, i) => (ERROR_LINE.test(l) ? [i] : [])).slice(-Math.min(maxLines, 10)));
  }
  if (picked.size === 0 && lines.length > 0 && options.fallbackToErrors !== false) {
    const tail = lines.map((_, i) => i).slice(-Math.min(maxLines, 5));
    take(tail);
    if (lines.length > tail.length) truncated = true;
  }

  const sorted = [...picked].sort((a, b) => a - b);
  const order = foldRepeats(sorted, lines);
  const maxLength = options.maxLineLength ?? 500;
  return {
    lines: order.map((i) => cutLine(lines[i]!, maxLength)),
    lineNumbers: order.map((i) => i + 1),
    truncated: truncated || order.length < sorted.length,
  };
}

/** A line's shape: the same message with other timestamps, numbers or ids. */
function shapeOf(line: string): string {
  return line.replace(/\d+/g, '0').replace(/[0-9a-f]{8,}/gi, 'x');
}

/** Runs of three or more lines of one shape keep their first and last line. */
function foldRepeats(indexes: number[], lines: readonly string[]): number[] {
  const out: number[] = [];
  let runStart = 0;
  for (let k = 1; k <= indexes.length; k++) {
    const same = k < indexes.length && shapeOf(lines[indexes[k]!]!) === shapeOf(lines[indexes[runStart]!]!);
    if (same) continue;
    const run = indexes.slice(runStart, k);
    out.push(...(run.length >= 3 ? [run[0]!, run[run.length - 1]!] : run));
    runStart = k;
  }
  return out;
}

/** A traceback's lines, keeping the header, the last frames and the exception when it is too long; plus the line before it. */
function tracebackLines(lines: readonly string[], [start, end]: [number, number], budget: number): number[] {
  const all: number[] = [];
  if (start > 0 && lines[start - 1]!.trim() !== '') all.push(start - 1);
  for (let i = start; i <= end; i++) all.push(i);
  if (all.length <= budget) return all;
  const head = all.slice(0, 2);
  const tail = all.slice(-(budget - head.length));
  return [...head, ...tail];
}
