import { CodedError } from '../core/coded-error.js';

/** Bad usage or invalid input: the CLI prints the message on one line and exits 2. */
export class UsageError extends CodedError<'USAGE'> {
  constructor(message: string) {
    super('USAGE', message);
  }
}
