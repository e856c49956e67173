/** What the Slack listeners need, built once by `startBot` and passed to `registerHandlers(app, deps)`. */
import type { AppConfig } from '../config.js';
import type { DiagnosisQueue } from '../queue/diagnosis-queue.js';
import type { MuteStore } from '../incidents/mute-store.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import type { AfterAck } from './after-ack.js';
import type { Logger } from '../core/logger.js';
import type { BotMetrics } from './metrics.js';
import type { SlackPoster } from './slack-poster.js';

export interface BotDeps {
  config: Pick<AppConfig, 'namespaces' | 'approvers' | 'alerts'>;
  queue: DiagnosisQueue;
  poster: SlackPoster;
  metrics: BotMetrics;
  logger: Logger;
  /** Runs a listener's work after its ack, a few at a time. */
  afterAck: AfterAck;
  /** Issue 4: proposals, approvals, rollout (absent: remediation buttons answer that it is off). */
  remediation?: RemediationDeps;
  /** Issue 5: `/isvc mute` / `unmute` (absent: those commands answer that incidents are off). */
  mutes?: MuteStore;
}
