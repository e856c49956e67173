/**
 * The traffic split as Knative routes it: a `latestRevision: true` share goes to the latest *ready*
 * revision, so while a new canary is not ready its 10% is served by the old one. The evidence says so
 * instead of listing the old revision twice with no reason.
 */
import { expect, it } from '@jest/globals';
import { main } from '../../src/cli/main.js';
import { renderFirstReply } from '../../src/render/slack/index.js';
import { runCliMain } from '../support/run-cli.mjs';

type Report = { findings: Array<{ code: string; evidence: Array<{ text?: string }> }> };

const diagnoseCanaryScenario = () =>
  runCliMain(main, [
    'diagnose',
    'sklearn-iris',
    '--snapshot',
    'test/scenarios/canary-new-revision-crashing',
    '-o',
    'json',
  ]);

it("names the revision a canary's share is held back from, and why", async () => {
  const r = await diagnoseCanaryScenario();
  const split = (JSON.parse(r.stdout) as Report).findings.find((f) => f.code === 'TRAFFIC_SPLIT')!;
  expect(split.evidence.map((e) => e.text)).toContain(
    'sklearn-iris-predictor-00001 (latest): 10% (the latest revision, sklearn-iris-predictor-00002, is not ready: Knative sends this share to sklearn-iris-predictor-00001 until it is)',
  );
  expect(split.evidence.map((e) => e.text)).toContain('sklearn-iris-predictor-00001 (prev): 90%');
});

it('names what the failing canary changed since the serving revision (read from the two Revisions), in the first reply', async () => {
  const r = await diagnoseCanaryScenario();
  const report = JSON.parse(r.stdout) as Report;
  const canary = report.findings.find((f) => f.code === 'CANARY_UNHEALTHY')!;
  const changed =
    'changed since sklearn-iris-predictor-00001: storageUri gs://kfserving-examples/models/sklearn/1.0/model -> gs://acme-ml-models/sklearn/iris/v2';
  expect(canary.evidence.map((e) => e.text)).toContain(changed);
  const first = JSON.stringify(renderFirstReply(report as unknown as Parameters<typeof renderFirstReply>[0]));
  expect(first).toContain(
    'storageUri gs://kfserving-examples/models/sklearn/1.0/model -&gt; gs://acme-ml-models/sklearn/iris/v2',
  );
});
