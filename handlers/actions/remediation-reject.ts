/** `remediation.reject`: an approver (or the requester) turns a proposal down; nothing changes in the cluster. */
import { rejectClick } from '../../src/remediation/decide-proposal.js';
import type { HandlerDeps } from '../handler-deps.js';
import { remediationClick } from './remediation-click.js';

export const remediationReject = (deps: HandlerDeps) => remediationClick(deps, rejectClick, 'remediation.reject');
