/**
 * Where a layer's outcome events go (a proposal offered, a remediation applied, an incident
 * opened…): the notifier of a surface renders each event and posts it. Resolves to the id (Slack
 * ts) of the message it posted, null when it posted none (an update, an ephemeral answer). A
 * failed post rejects, so the step that emitted the event decides whether to retry.
 */
export type Notify<E> = (event: E) => Promise<string | null>;
