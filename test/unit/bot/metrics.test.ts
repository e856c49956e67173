/**
 * The bot's metrics as Prometheus and stock dashboards expect them: standard process_* / nodejs_*
 * names, no gauge named like a counter, build info, the watcher-leader gauge read at scrape time,
 * and the failure series the alerts select present at 0 before any failure.
 */
import { readFileSync } from 'node:fs';
import { createBotMetrics } from '../../../src/bot/metrics.js';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

it('keeps the standard names of the process and Node.js metrics, without the _total gauges', async () => {
  const metrics = createBotMetrics();
  const byName = new Map((await metrics.registry.getMetricsAsJSON()).map((m) => [m.name, String(m.type)]));
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_p99_seconds',
    'nodejs_heap_size_used_bytes',
  ])
    expect(byName.has(name)).toBe(true);
  expect(
    [...byName.keys()].filter((n) => n.startsWith('isvc_doctor_process_') || n.startsWith('isvc_doctor_nodejs_')),
  ).toEqual([]);
  expect([...byName].filter(([n, type]) => n.endsWith('_total') && type !== 'counter')).toEqual([]);
});

it('exports the build info and whether this process leads the watcher', async () => {
  const metrics = createBotMetrics({ defaultMetrics: false });
  let leader = false;
  let text = await metrics.registry.metrics();
  expect(text).toContain(`isvc_doctor_build_info{version="${VERSION}",nodejs_version="${process.versions.node}"} 1`);
  expect(text).toMatch(/^isvc_doctor_watcher_leader 0$/m);
  metrics.observeWatcher({ isLeader: () => leader });
  leader = true;
  text = await metrics.registry.metrics();
  expect(text).toMatch(/^isvc_doctor_watcher_leader 1$/m);
});

it('starts the failure series at 0, so that the first failure is counted by increase()', async () => {
  const text = await createBotMetrics({ defaultMetrics: false }).registry.metrics();
  expect(text).toContain('isvc_doctor_diagnoses_total{outcome="failed",root_cause="none"} 0');
  expect(text).toContain(
    'isvc_doctor_diagnoses_total{outcome="cluster-unreachable",root_cause="CLUSTER_UNREACHABLE"} 0',
  );
  expect(text).toContain('isvc_doctor_remediations_total{action="raise-memory-limit",outcome="failed"} 0');
  expect(text).toContain('isvc_doctor_remediations_total{action="restart-pods",outcome="error"} 0');
  for (const kind of ['open', 'recover', 'refresh'])
    expect(text).toContain(`isvc_doctor_incident_jobs_total{kind="${kind}",outcome="failed"} 0`);
});
