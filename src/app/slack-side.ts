/** The process' one Slack Web API client, the poster on it (Slack errors counted), and the Slack notifiers of every layer's events. */
import { countSlackErrors, type BotMetrics } from '../bot/metrics.js';
import { clusterNamedPoster } from '../clusters/cluster-named-poster.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '../core/logger.js';
import { slackDiagnosisNotifier } from '../notify/slack-diagnosis-notifier.js';
import { slackIncidentNotifier } from '../notify/slack-incident-notifier.js';
import { slackRemediationNotifier } from '../notify/slack-remediation-notifier.js';
import { redactingPoster } from '../slack/redacting-poster.js';
import { oncePoster } from '../slack/once-poster.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import type { Redis } from 'ioredis';
import { createUserGroupDirectory } from '../slack/user-group-directory.js';
import { createPostingClient, createSlackPoster, createSlackWebClient } from '../slack/web-api-poster.js';

/**
 * `cluster`: a multi-cluster agent's, named in every message it posts. `once`: Redis and a key prefix
 * to record each job's posts in, so a job run again after its process died does not post twice.
 */
export function createSlackSide(
  config: Pick<AppConfig, 'slack'>,
  metrics: BotMetrics,
  logger: Logger,
  cluster: string | null = null,
  once?: { redis: Redis; keyPrefix: string },
) {
  const client = createSlackWebClient({ botToken: config.slack.botToken, apiUrl: config.slack.apiUrl });
  // the poster decides its own retries (no duplicate posts): a client of its own that tries once
  const counted: SlackPoster = countSlackErrors(
    redactingPoster(
      createSlackPoster(createPostingClient({ botToken: config.slack.botToken, apiUrl: config.slack.apiUrl }), {
        warn: (m) => logger.warn(m),
      }),
    ),
    metrics,
  );
  const named = cluster === null ? counted : clusterNamedPoster(counted, cluster);
  const poster = once ? oncePoster(named, once.redis, once.keyPrefix) : named;
  return {
    poster,
    groups: createUserGroupDirectory(client, { warn: logger.warn }),
    /** The link to a posted message (chat.getPermalink); null when Slack gives none. */
    permalink: async (channel: string, ts: string): Promise<string | null> =>
      (await client.chat.getPermalink({ channel, message_ts: ts })).permalink ?? null,
    notify: {
      diagnosis: slackDiagnosisNotifier(poster),
      remediation: slackRemediationNotifier(poster),
      incidents: slackIncidentNotifier(poster),
    },
  };
}

export type SlackSide = ReturnType<typeof createSlackSide>;
