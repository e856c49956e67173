// Starts one redis-server for the whole test run, unless REDIS_URL names one to use.
import { startRedisServer } from './redis-process.mjs';

export default async function globalSetup() {
  if (process.env.REDIS_URL) return;
  const redis = await startRedisServer();
  process.env.REDIS_URL = redis.url;
  globalThis.__ISVC_DOCTOR_REDIS__ = redis;
}
