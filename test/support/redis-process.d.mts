export interface RedisHandle {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startRedisServer(options?: { port?: number; dir?: string; appendOnly?: boolean }): Promise<RedisHandle>;
