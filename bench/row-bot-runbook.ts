/** In-bot diagnosis (signed slash command → root cause in the thread at the fake Slack) vs the same kubectl runbook. */
import { runbookSpeedupRow } from './runbook-speedup-row.js';

export const botRunbookRow = runbookSpeedupRow({
  id: 'bot-runbook',
  title: 'in-bot diagnosis (command → root cause in the thread) vs the kubectl runbook',
  side: (u) => u.bot,
  what: 'bot',
  target: 20,
});
