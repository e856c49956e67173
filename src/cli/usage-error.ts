/** Bad usage or invalid input: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
