/** The action ids of the bot's buttons (`<domain>.<verb>`); a button's value is only an opaque id or a target. */
export const APPROVE_ACTION = 'remediation.approve';
export const REJECT_ACTION = 'remediation.reject';
/** Runs the diagnosis again (value: `namespace/name`). */
export const REDIAGNOSE_ACTION = 'diagnosis.rerun';
/** Mutes an InferenceService's automatic incidents for an hour (value: `namespace/name`). */
export const MUTE_HOUR_ACTION = 'incident.mute';
/** Rollout buttons (value: `namespace/name`); each proposes the change, an approver applies it. */
export const ROLLOUT_PROMOTE_ACTION = 'rollout.promote';
export const ROLLOUT_ROLLBACK_ACTION = 'rollout.rollback';
/** A static select of traffic splits (option value: `namespace/name stable/canary`). */
export const ROLLOUT_SPLIT_ACTION = 'rollout.split';
/** URL buttons (Grafana, Jaeger, Kiali): Slack still sends a click, which is only acknowledged. */
export const OPEN_LINK_ACTION = 'link.open';
