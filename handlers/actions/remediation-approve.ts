/** `remediation.approve`: an approver applies a proposal (checks and exactly-once in src/remediation/decide-proposal.ts). */
import { approveClick } from '../../src/remediation/decide-proposal.js';
import type { HandlerDeps } from '../handler-deps.js';
import { remediationClick } from './remediation-click.js';

export const remediationApprove = (deps: HandlerDeps) => remediationClick(deps, approveClick, 'remediation.approve');
