/** The one error a snapshot loader throws: a one-line message that starts with `file[:line]: `. */
export class SnapshotError extends Error {
  readonly code = 'SNAPSHOT_INVALID';
  readonly file: string;
  readonly line?: number;

  constructor(problem: string, file: string, line?: number) {
    const where = line === undefined ? file : `${file}:${line}`;
    super(`${where}: ${problem.replace(/\s*\n[\s\S]*$/, '')}`);
    this.name = 'SnapshotError';
    this.file = file;
    if (line !== undefined) this.line = line;
  }
}
