import type { AppConfig } from '../config.js';

/** A cluster agent's view of the config: its cluster's alerts channel. */
export function agentConfig(config: AppConfig, cluster: string): AppConfig {
  const c = config.clusters?.[cluster];
  if (!c?.alertsChannel) return config;
  return { ...config, alerts: { ...config.alerts, channel: c.alertsChannel } };
}
