/** The Slack renderer: pure functions from reports (and a few notices) to Block Kit messages. */
export * from './block-kit.js';
export { SLACK_LIMITS, escapeMrkdwn } from './limits.js';
export {
  renderReportMessages,
  renderFirstReply,
  renderDetailReplies,
  MAX_REPORT_MESSAGES,
  SCREEN_LINES,
  targetName,
} from './render-report.js';
export { verdictOf } from '../verdict.js';
export { renderProgress, renderVerdict, verdictLine } from './render-verdict.js';
export { screenLines, visibleText } from './screen-lines.js';
export * from './render-notices.js';
export { renderStatus } from './render-status.js';
