import { componentsOf, refOf } from '../kube/inference-service-view.js';
import type { DiagnosisContext } from './playbook.js';
import type { Remediation } from './types.js';

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** Bytes of a Kubernetes memory quantity ("256Mi", "1G", "512000000"), or undefined. */
export function parseMemory(q: string | undefined): number | undefined {
  if (!q) return undefined;
  const m = /^(\d+(?:\.\d+)?)([KMGT]i?|k)?$/.exec(q.trim());
  if (!m) return undefined;
  return Number(m[1]) * (UNITS[m[2] ?? ''] ?? 1);
}

/** A quantity in the largest binary unit that keeps it whole (e.g. 536870912 -> "512Mi"). */
export function formatMemory(bytes: number): string {
  for (const unit of ['Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const v = bytes / UNITS[unit]!;
    if (v >= 1 && Number.isInteger(v)) return `${v}${unit}`;
  }
  return `${Math.ceil(bytes / UNITS.Mi!)}Mi`;
}

/** Proposes doubling the memory limit of the component that was OOMKilled (issue 4 applies it). */
export function raiseMemoryRemediation(ctx: DiagnosisContext, componentName: string | undefined, currentLimit: string | undefined): Remediation | null {
  const component = componentsOf(ctx.target.isvc).find((c) => c.name === (componentName ?? 'predictor') && !c.canary) ?? componentsOf(ctx.target.isvc)[0];
  if (!component) return null;
  const limit = component.memoryLimit ?? currentLimit;
  const bytes = parseMemory(limit);
  const next = bytes ? formatMemory(bytes * 2) : '2Gi';
  const path = [...component.resourcesPath, 'limits', 'memory'].join('.');
  return {
    action: 'raise-memory-limit',
    summary: `Raise the ${component.name} memory limit from ${limit ?? 'none'} to ${next}`,
    target: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    diff: [`  ${path}:`, `-   ${limit ?? '(not set)'}`, `+   ${next}`],
    needsApproval: true,
    params: { component: component.name, path: [...component.resourcesPath], from: limit ?? null, to: next },
  };
}
