/** The action ids of the bot's buttons (`<domain>.<verb>`); a button's value is only an opaque id. */
export const APPROVE_ACTION = 'remediation.approve';
export const REJECT_ACTION = 'remediation.reject';
