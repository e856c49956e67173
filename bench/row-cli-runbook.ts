/** CLI diagnosis (a whole `diagnose` process) vs the seed guide's runbook typed into kubectl, same simulator and latency. */
import { runbookSpeedupRow } from './runbook-speedup-row.js';

export const cliRunbookRow = runbookSpeedupRow({
  id: 'cli-runbook',
  title: 'CLI diagnosis vs the seed runbook typed into kubectl (same simulator, same latency)',
  side: (u) => u.cli,
  what: 'CLI',
  target: 5,
});
