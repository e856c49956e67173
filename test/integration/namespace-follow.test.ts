/**
 * A name asked for without a namespace, in the bot: the default namespace has no InferenceService of
 * that name and exactly one other namespace the bot may read has: the diagnosis goes there and says
 * so. Asked with a namespace, or where the bot may not read the other one, it stays ISVC_NOT_FOUND
 * naming where the name is.
 */
import { diagnose } from '../../src/app/diagnoser.js';
import { DEFAULT_DIAGNOSIS_CONFIG } from '../../src/config.js';
import { renderTextReport } from '../../src/render/text-report.js';
import { renderVerdict } from '../../src/render/slack/render-verdict.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { useTwoNamespaceCluster } from '../support/two-namespace-cluster.js';

const cluster = useTwoNamespaceCluster();
const diagnoseIn = (target: Parameters<typeof diagnose>[1], options?: Parameters<typeof diagnose>[2]) =>
  diagnose(kubeConfigForServer(cluster().sim.url), target, options);

const FRAUD = { namespace: 'default', name: 'fraud-lgbm' }; // it lives in payments-ml

it('follows a defaulted namespace to the only one that holds the name, and says so on every surface', async () => {
  const report = await diagnoseIn({ ...FRAUD, namespaceDefaulted: true });
  expect(report.target).toEqual(expect.objectContaining({ namespace: 'payments-ml', name: 'fraud-lgbm' }));
  expect(report.followedFrom).toEqual({ namespace: 'default' });
  expect(report.rootCause).toBe('OOM_KILLED');
  expect(renderTextReport(report).split('\n')[1]).toBe(
    '  (no namespace given: fraud-lgbm is not in default, only in payments-ml, so that one is diagnosed)',
  );
  expect(JSON.stringify(renderVerdict(report).blocks)).toContain(
    'No namespace given: *fraud-lgbm* is not in default, only in payments-ml, so that one is diagnosed.',
  );
});

it('stays in a namespace that was asked for, naming where the name is', async () => {
  const report = await diagnoseIn(FRAUD);
  expect(report.rootCause).toBe('ISVC_NOT_FOUND');
  expect(report.followedFrom).toBeUndefined();
  expect(report.findings[0]!.next).toBe(
    'fraud-lgbm is in namespace payments-ml, not default: isvc-doctor diagnose fraud-lgbm -n payments-ml',
  );
});

it('does not follow into a namespace the bot may not read', async () => {
  const report = await diagnoseIn(
    { ...FRAUD, namespaceDefaulted: true },
    { config: { ...DEFAULT_DIAGNOSIS_CONFIG, namespaces: ['default'] } },
  );
  expect(report.rootCause).toBe('ISVC_NOT_FOUND');
  expect(report.target).toEqual({ namespace: 'default', name: 'fraud-lgbm', apiVersion: null }); // no request flag in the report
});
