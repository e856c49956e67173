import { CodedError } from '../core/coded-error.js';

/** Errors of the remediation flow, each with a stable code users see (never a stack trace). */
export type RemediationErrorCode =
  | 'REMEDIATION_UNKNOWN_ACTION'
  | 'REMEDIATION_BAD_PARAMS'
  | 'REMEDIATION_NOTHING_TO_CHANGE'
  | 'REMEDIATION_TARGET_NOT_FOUND'
  | 'REMEDIATION_AT_LIMIT'
  | 'REMEDIATION_NOT_APPLICABLE';

export class RemediationError extends CodedError<RemediationErrorCode> {}
