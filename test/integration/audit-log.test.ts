/** The remediation audit stream on real Redis: entries in order, capped at about its configured length (XADD MAXLEN ~). */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AuditLog } from '../../src/remediation/audit-log.js';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL!);
});
afterAll(async () => {
  await redis.quit();
});

const entry = (i: number) => ({
  event: 'proposed' as const,
  proposalId: `p-${i}`,
  action: 'restart-pods',
  object: 'InferenceService default/iris',
  actor: 'U1',
});

it('keeps every entry, oldest first, while under its cap', async () => {
  const audit = new AuditLog(redis, `audit-test-${randomUUID()}`, 100);
  for (let i = 0; i < 3; i += 1) await audit.append(entry(i));
  expect((await audit.list()).map((r) => r.proposalId)).toEqual(['p-0', 'p-1', 'p-2']);
  expect((await audit.list('p-1')).map((r) => r.event)).toEqual(['proposed']);
  await redis.del(audit.key);
});

it('drops the oldest entries past its cap and keeps the newest', async () => {
  const audit = new AuditLog(redis, `audit-test-${randomUUID()}`, 100);
  const total = 500;
  for (let i = 0; i < total; i += 1) await audit.append(entry(i));
  const length = await redis.xlen(audit.key);
  // MAXLEN ~ trims whole stream nodes (100 entries each by default): at least the cap, less than a node over
  expect(length).toBeGreaterThanOrEqual(100);
  expect(length).toBeLessThan(200);
  const kept = await audit.list(undefined, total);
  expect(kept.at(-1)!.proposalId).toBe(`p-${total - 1}`);
  expect(kept.some((r) => r.proposalId === 'p-0')).toBe(false);
  await redis.del(audit.key);
});

it('keeps no secret an outcome or a patch quotes (an API error, a value)', async () => {
  const audit = new AuditLog(redis, `audit-test-${randomUUID()}`, 100);
  const password = `Pw${randomUUID().replace(/-/g, '').slice(0, 12)}9`;
  const token = `glpat-${randomUUID().replace(/-/g, '')}`;
  await audit.append({
    ...entry(0),
    event: 'failed',
    patch: JSON.stringify({ env: [{ name: 'DB_PASSWORD', value: password }] }),
    outcome: `admission webhook denied: redis://:${password}@cache:6379 token ${token}`,
  });
  const [record] = await audit.list();
  expect(JSON.stringify(record)).not.toContain(password);
  expect(JSON.stringify(record)).not.toContain(token.slice(6));
  expect(record!.outcome).toContain('admission webhook denied: redis://:[REDACTED]@cache:6379');
  await redis.del(audit.key);
});
