/**
 * tracing-links on an InferenceService with the config's link templates (`diagnosis.links`): one
 * TRACING_LINKS finding with a link per template, {namespace}, {name}, {component} and {revision}
 * filled in from the object, the revision its status last made ready; nothing when no
 * template is configured.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { tracingLinks } from './tracing-links.js';

const TARGET = { namespace: 'fraud', name: 'scorer' };

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'scorer', namespace: 'fraud', generation: 1 },
  spec: { predictor: { sklearn: { storageUri: 'gs://models/scorer' } } },
  status: {
    observedGeneration: 1,
    conditions: [{ type: 'Ready', status: 'True' }],
    components: {
      predictor: { latestReadyRevision: 'scorer-predictor-00003', latestCreatedRevision: 'scorer-predictor-00004' },
    },
  },
};

const LINKS = [
  { name: 'Grafana', url: 'https://grafana.example.com/d/kserve?var-namespace={namespace}&var-isvc={name}' },
  { name: 'Jaeger', url: 'https://jaeger.example.com/search?service={component}&tags=revision%3D{revision}' },
];

describe('tracing-links', () => {
  it('gives a link per configured template, filled from the object', async () => {
    const { report } = await runPlaybook(tracingLinks, [isvc], TARGET, { diagnose: { config: { links: LINKS } } });
    const f = report.findings.find((x) => x.code === 'TRACING_LINKS')!;
    expect(f).toMatchObject({ severity: 'info', subject: 'InferenceService fraud/scorer' });
    expect(f.evidence.map((e) => [e.kind, e.text, e.url])).toEqual([
      ['link', 'Grafana', 'https://grafana.example.com/d/kserve?var-namespace=fraud&var-isvc=scorer'],
      // the revision the status last made ready, not the newest created one
      ['link', 'Jaeger', 'https://jaeger.example.com/search?service=predictor&tags=revision%3Dscorer-predictor-00003'],
    ]);
  });

  it('says nothing when no template is configured', async () => {
    const { report } = await runPlaybook(tracingLinks, [isvc], TARGET, { diagnose: { config: { links: [] } } });
    expect(report.findings.filter((x) => x.code === 'TRACING_LINKS')).toEqual([]);
  });
});
