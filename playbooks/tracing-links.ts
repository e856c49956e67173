/**
 * Investigate Performance Issues (debug guide): links to the metrics dashboards and traces for this
 * InferenceService, from the URL templates in the config (`diagnosis.links`), with {namespace},
 * {name}, {component} and {revision} filled in.
 *
 * RBAC: none beyond the InferenceService.
 * Emits: TRACING_LINKS.
 */
import type { Playbook } from '../src/diagnosis/playbook.js';
import { finding } from '../src/findings/finding.js';
import { componentsOf, refOf } from '../src/kube/inference-service-view.js';

export const tracingLinks: Playbook = {
  id: 'tracing-links',
  title: 'Metrics and tracing links',
  emits: ['TRACING_LINKS'],
  async run(ctx) {
    if (ctx.config.links.length === 0) return [];
    const components = ctx.target.isvc.status?.components ?? {};
    const predictor = (components.predictor ?? {}) as Record<string, unknown>;
    const values: Record<string, string> = {
      namespace: ctx.target.namespace,
      name: ctx.target.name,
      component: componentsOf(ctx.target.isvc)[0]?.name ?? 'predictor',
      revision: String(predictor.latestReadyRevision ?? predictor.latestCreatedRevision ?? ''),
    };
    const fill = (template: string) =>
      template.replace(/\{(namespace|name|component|revision)\}/g, (_, key: string) =>
        encodeURIComponent(values[key] ?? ''),
      );
    const ref = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
    return [
      finding('TRACING_LINKS', {
        subject: ref,
        title: `Metrics and traces for ${ctx.target.name}`,
        evidence: ctx.config.links.map((l) => ({ kind: 'link' as const, ref, text: l.name, url: fill(l.url) })),
      }),
    ];
  },
};
