import type { RedisHandle } from './redis-server.js';

export default async function globalTeardown(): Promise<void> {
  const redis = (globalThis as { __ISVC_DOCTOR_REDIS__?: RedisHandle }).__ISVC_DOCTOR_REDIS__;
  await redis?.stop();
}
