import { CodedError } from '../core/coded-error.js';

/** Bad input to a tool (what the CLI exits 2 for): code USAGE, one line. */
export class UsageCodedError extends CodedError<'USAGE'> {
  constructor(message: string) {
    super('USAGE', message);
  }
}
