export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
export interface DeployedRedis {
  /** The bot's REDIS_URL as deploy/base/deployment.yaml builds it, pointed at this server. */
  url: string;
  port: number;
  /** redis-server's args after $(VAR) expansion (the data directory replaced). */
  args: string[];
  /** Runs the StatefulSet's readiness probe command (redis-cli) against this server. */
  probe(env?: Record<string, string>): { status: number | null; stdout: string; stderr: string };
  stop(): Promise<void>;
}
export function expandVars(text: string, vars: Record<string, string>): string;
export function expandEnv(env: EnvVar[], secrets: Record<string, string>): Record<string, string>;
export function redisContainer(): { args: string[]; env?: EnvVar[]; readinessProbe: { exec: { command: string[] } } };
export function botEnv(): EnvVar[];
export function startDeployedRedis(password: string): Promise<DeployedRedis>;
