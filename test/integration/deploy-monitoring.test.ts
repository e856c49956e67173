/**
 * deploy/optional/monitoring against the code: the PodMonitor selects the bot's pods on a port they
 * have and names the job the alerts and dashboard select; every metric the alerts and the Grafana
 * dashboard query is one the bot exports (src/bot/metrics.ts; process and Node.js metrics under
 * their standard names), and each of the bot's own metrics has a panel.
 * promtool checks the rules' syntax and behaviour in CI (scripts/check-prometheus-rules.mjs).
 */
import { createBotMetrics } from '../../src/bot/metrics.js';
import { findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';

const objects = renderKustomization('deploy/examples/serverless').objects;
const podMonitor = findObject(objects, 'PodMonitor', 'isvc-doctor', 'isvc-doctor') as ManifestObject & {
  spec: {
    jobLabel: string;
    selector: { matchLabels: Record<string, string> };
    podMetricsEndpoints: Array<{ port: string; path: string }>;
  };
};
const rule = findObject(objects, 'PrometheusRule', 'isvc-doctor', 'isvc-doctor') as ManifestObject & {
  spec: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
};
const dashboardMap = findObject(objects, 'ConfigMap', 'isvc-doctor-dashboard', 'isvc-doctor')!;
const dashboard = JSON.parse((dashboardMap.data as Record<string, string>)['isvc-doctor-dashboard.json']!) as {
  uid: string;
  panels: Array<{ id: number; datasource: { uid: string }; targets: Array<{ expr: string }> }>;
};
const pod = (
  findObject(objects, 'Deployment', 'isvc-doctor', 'isvc-doctor')!.spec as {
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: Array<{ ports: Array<{ name: string }> }> };
    };
  }
).template;

const exprs = () => [
  ...rule.spec.groups.flatMap((g) => g.rules.map((r) => r.expr)),
  ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
];

/** Metric names a PromQL expression reads: the bot's own, and the standard process and Node.js ones. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:isvc_doctor|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

it('the PodMonitor scrapes the bot pods on a port they have, as job isvc-doctor', () => {
  for (const [k, v] of Object.entries(podMonitor.spec.selector.matchLabels)) expect(pod.metadata.labels[k]).toBe(v);
  const [endpoint] = podMonitor.spec.podMetricsEndpoints;
  expect(pod.spec.containers[0]!.ports.map((p) => p.name)).toContain(endpoint!.port);
  expect(endpoint!.path).toBe('/metrics');
  expect(pod.metadata.labels[podMonitor.spec.jobLabel]).toBe('isvc-doctor');
  for (const e of exprs()) expect(e).toContain('job="isvc-doctor"');
});

it('queries only metrics the bot exports, and gives each of its own metrics a panel', async () => {
  const metrics = createBotMetrics();
  const exported = new Set<string>();
  for (const m of await metrics.registry.getMetricsAsJSON()) {
    exported.add(m.name);
    if (String(m.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${m.name}${suffix}`);
  }
  const queried = new Set(exprs().flatMap(metricNames));
  expect([...queried].filter((n) => !exported.has(n))).toEqual([]);
  expect([...queried].filter((n) => /^(process|nodejs)_/.test(n)).sort()).toEqual([
    'nodejs_eventloop_lag_p99_seconds',
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
  ]);
  const own = [...exported].filter((n) => n.startsWith('isvc_doctor_') && !/_(bucket|sum|count)$/.test(n));
  const panelled = new Set(
    dashboard.panels
      .flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)))
      .map((n) => n.replace(/_bucket$/, '')),
  );
  expect(own.filter((n) => !panelled.has(n))).toEqual([]);
  // every alert the prose of docs/operations.md lists
  expect(rule.spec.groups.flatMap((g) => g.rules.map((r) => r.alert))).toEqual([
    'IsvcDoctorDown',
    'IsvcDoctorQueueStalled',
    'IsvcDoctorQueueBacklog',
    'IsvcDoctorDiagnosesFailing',
    'IsvcDoctorSlackApiErrors',
    'IsvcDoctorRemediationFailed',
    'IsvcDoctorIncidentJobsFailing',
  ]);
});

it('ships the dashboard where Grafana looks for it, with one datasource variable', () => {
  expect(dashboardMap.metadata.labels).toEqual(expect.objectContaining({ grafana_dashboard: '1' }));
  expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's dashboard variable, literal in the JSON
  for (const p of dashboard.panels) expect(p.datasource.uid).toBe('${datasource}');
  expect(dashboard.uid).toBe('isvc-doctor');
});
