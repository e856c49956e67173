/**
 * `remediation.approve`: acked first; the click is handed over as an approve (to a cluster's agent in a
 * multi-cluster web process), never as a reject; with remediations off the clicker is told so ephemerally.
 */
import { describeProposalClickListener } from '../../test/support/proposal-click-listener.js';
import { remediationApprove } from './remediation-approve.js';

describeProposalClickListener('approve', remediationApprove);
