import { CodedError } from '../core/coded-error.js';

/** The one error a snapshot loader throws: a one-line message that starts with `file[:line]: `. */
export class SnapshotError extends CodedError<'SNAPSHOT_INVALID'> {
  readonly file: string;
  readonly line?: number;

  constructor(problem: string, file: string, line?: number) {
    const where = line === undefined ? file : `${file}:${line}`;
    super('SNAPSHOT_INVALID', `${where}: ${problem.replace(/\s*\n[\s\S]*$/, '')}`);
    this.file = file;
    if (line !== undefined) this.line = line;
  }
}
