/** `remediation.reject`: an approver (or the requester) turns a proposal down; nothing changes in the cluster. */
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { rejectClick } from '../../src/remediation/decide-proposal.js';
import { remediationClick } from './remediation-click.js';

export const remediationReject = (deps: BotDeps) => remediationClick(deps, rejectClick, 'remediation.reject');
