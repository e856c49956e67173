/**
 * The operations server of `serve`: /metrics, /healthz and /readyz on a port of their own
 * (METRICS_PORT, default 9090), in every role and mode, so that an ingress routing Slack's port
 * never exposes them and Prometheus is admitted to this port only.
 */
import type { HealthRoute } from '../bot/health-routes.js';
import { startHealthServer } from '../bot/health-routes.js';

export interface RunningMetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(routes: HealthRoute[], port: number): Promise<RunningMetricsServer> {
  const { server, port: bound } = await startHealthServer(routes, port);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
