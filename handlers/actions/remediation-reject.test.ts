/**
 * `remediation.reject`: acked first; the click is handed over as a reject (to a cluster's agent in a
 * multi-cluster web process), never as an approve; with remediations off the clicker is told so ephemerally.
 */
import { describeProposalClickListener } from '../../test/support/proposal-click-listener.js';
import { remediationReject } from './remediation-reject.js';

describeProposalClickListener('reject', remediationReject);
