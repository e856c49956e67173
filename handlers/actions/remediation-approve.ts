/** `remediation.approve`: an approver applies a proposal (checks and exactly-once in src/remediation/decide-proposal.ts). */
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { approveClick } from '../../src/remediation/decide-proposal.js';
import { remediationClick } from './remediation-click.js';

export const remediationApprove = (deps: BotDeps) => remediationClick(deps, approveClick, 'remediation.approve');
