/** Every row of the performance table, in the order `npm run bench` runs them. The only registry. */
import type { BenchRow } from './bench-row.js';
import { ackRow } from './row-ack.js';
import { botRunbookRow } from './row-bot-runbook.js';
import { cliRunbookRow } from './row-cli-runbook.js';
import { loadingRow } from './row-loading.js';
import { mcpTokenRow } from './row-mcp-token.js';
import { multiClusterRow } from './row-multi-cluster.js';
import { requestsRow } from './row-requests.js';
import { statusRow } from './row-status.js';
import { stormRow } from './row-storm.js';
import { watcherRssRow } from './row-watcher-rss.js';

export const BENCH_ROWS: readonly BenchRow[] = [
  cliRunbookRow,
  botRunbookRow,
  loadingRow,
  requestsRow,
  ackRow,
  watcherRssRow,
  stormRow,
  statusRow,
  multiClusterRow,
  mcpTokenRow,
];
