/** A throwaway redis-server on a free loopback port (implemented in redis-process.mjs, shared with Jest's globalSetup). */
export { freePort, startRedisServer, type RedisHandle } from './redis-process.mjs';
