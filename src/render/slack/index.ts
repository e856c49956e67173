/** The Slack renderer: pure functions from reports (and a few notices) to Block Kit messages. */
export * from './block-kit.js';
export { SLACK_LIMITS, escapeMrkdwn } from './limits.js';
export { renderReportMessages, MAX_REPORT_MESSAGES, targetName } from './render-report.js';
export { renderProgress, renderVerdict, verdictLine } from './render-verdict.js';
export * from './render-notices.js';
export { renderStatus } from './render-status.js';
