/**
 * What the rows share in one `npm run bench`: the options, a temporary folder, one private
 * redis-server, one fake Slack Web API (in this process: it stands for Slack, it is not measured),
 * memoised setups (a simulator two rows can share) and the clean-up of everything started.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeSlackApi, type FakeSlackApi } from '../test/support/fake-slack-api.js';
import { startRedisServer } from '../test/support/redis-server.js';
import type { BenchOptions } from './bench-options.js';

export interface BenchContext {
  options: BenchOptions;
  workDir: string;
  redisUrl(): Promise<string>;
  slack(): Promise<FakeSlackApi>;
  /** The same promise for the same key during the whole run. */
  memo<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Runs at the end (last registered first), also on Ctrl-C. */
  onCleanup(fn: () => Promise<unknown> | unknown): void;
  /** An indented line under the row being measured. */
  detail(line: string): void;
  close(): Promise<void>;
}

export function createBenchContext(options: BenchOptions): BenchContext {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'isvc-doctor-bench-'));
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const memos = new Map<string, Promise<unknown>>();
  const memo = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    if (!memos.has(key)) memos.set(key, make());
    return memos.get(key) as Promise<T>;
  };
  const context: BenchContext = {
    options,
    workDir,
    memo,
    redisUrl: () =>
      memo('redis', async () => {
        if (process.env.REDIS_URL) return process.env.REDIS_URL;
        const redis = await startRedisServer();
        cleanups.push(() => redis.stop());
        return redis.url;
      }),
    slack: () =>
      memo('slack', async () => {
        const slack = await startFakeSlackApi();
        cleanups.push(() => slack.close());
        return slack;
      }),
    onCleanup: (fn) => cleanups.push(fn),
    detail: (line) => console.log(`    ${line}`),
    close: async () => {
      for (const fn of cleanups.splice(0).reverse()) await Promise.resolve(fn()).catch(() => undefined);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
  return context;
}
