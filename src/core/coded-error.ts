/**
 * The one base class of the project's errors: a stable UPPER_SNAKE code that people, logs, metrics
 * and tests rely on, and a one-line message that says what to do. Never shown with a stack trace.
 */
export class CodedError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
