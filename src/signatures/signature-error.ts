/** A signature file that cannot be used: one line naming the file, the entry and the field. */
export class SignatureError extends Error {
  readonly code = 'SIGNATURES_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}
