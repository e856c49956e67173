import { startRedisServer } from './redis-server.js';

/** Starts one redis-server for the whole test run, unless REDIS_URL names one to use. */
export default async function globalSetup(): Promise<void> {
  if (process.env.REDIS_URL) return;
  const redis = await startRedisServer();
  process.env.REDIS_URL = redis.url;
  (globalThis as { __ISVC_DOCTOR_REDIS__?: typeof redis }).__ISVC_DOCTOR_REDIS__ = redis;
}
