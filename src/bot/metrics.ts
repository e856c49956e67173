/** Prometheus metrics of the bot (`GET /metrics`), on a registry of its own per process. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Report } from '../diagnosis/types.js';
import type { DiagnosisOutcome } from '../queue/process-job.js';

export interface BotMetrics {
  registry: Registry;
  commandReceived(subcommand: string, outcome: string): void;
  diagnosisDone(outcome: DiagnosisOutcome, report: Report | null, seconds: number): void;
}

export function createBotMetrics(options: { defaultMetrics?: boolean } = {}): BotMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'isvc_doctor_' });
  const commands = new Counter({ name: 'isvc_doctor_commands_total', help: 'Slack commands received', labelNames: ['subcommand', 'outcome'], registers: [registry] });
  const diagnoses = new Counter({ name: 'isvc_doctor_diagnoses_total', help: 'Diagnosis jobs finished', labelNames: ['outcome', 'root_cause'], registers: [registry] });
  const findings = new Counter({ name: 'isvc_doctor_findings_total', help: 'Findings reported, by code', labelNames: ['code'], registers: [registry] });
  const duration = new Histogram({
    name: 'isvc_doctor_diagnosis_duration_seconds',
    help: 'Time from a job starting to its answers being posted',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    registry,
    commandReceived: (subcommand, outcome) => commands.inc({ subcommand, outcome }),
    diagnosisDone: (outcome, report, seconds) => {
      diagnoses.inc({ outcome, root_cause: report?.rootCause ?? (outcome === 'cluster-unreachable' ? 'CLUSTER_UNREACHABLE' : 'none') });
      for (const f of report?.findings ?? []) findings.inc({ code: f.code });
      duration.observe(seconds);
    },
  };
}
