/**
 * raise-shm: the /dev/shm lists (an emptyDir added and mounted, a small sizeLimit raised, nothing
 * when it is already large enough), the exact YAML by hand for a custom container in a list
 * (llm-runtime-vllm-tp4-nccl-dev-shm-no-space), and the merge patch of the whole lists for a model
 * spec: planned with a dry run, no write, every other entry kept.
 */
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';
import { withShm } from '../../../src/changes/shm-volume.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';

const cache = { name: 'cache', emptyDir: {} };
const cacheMount = { name: 'cache', mountPath: '/cache' };

describe('withShm', () => {
  it('adds a 2Gi memory-backed emptyDir and mounts it at /dev/shm, keeping every other entry', () => {
    expect(withShm([cache], [cacheMount])).toEqual({
      volumes: {
        before: [cache],
        after: [cache, { name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '2Gi' } }],
      },
      volumeMounts: { before: [cacheMount], after: [cacheMount, { name: 'dshm', mountPath: '/dev/shm' }] },
      summary: 'mount an emptyDir dshm (medium: Memory, sizeLimit: 2Gi) at /dev/shm',
    });
    expect(withShm(undefined, undefined)?.volumes.after).toHaveLength(1);
    expect(withShm([{ name: 'dshm', emptyDir: {} }], [])?.volumeMounts?.after).toEqual([
      { name: 'dshm-nccl', mountPath: '/dev/shm' },
    ]);
  });
  it('raises a smaller sizeLimit of the emptyDir already at /dev/shm; nothing when it has 2Gi, no limit, or is no emptyDir', () => {
    const small = { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } };
    const mount = { name: 'shm', mountPath: '/dev/shm' };
    expect(withShm([cache, small], [mount])).toEqual({
      volumes: {
        before: [cache, small],
        after: [cache, { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '2Gi' } }],
      },
      summary: "raise shm's sizeLimit (mounted at /dev/shm) from 64Mi to 2Gi",
    });
    expect(withShm([{ name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } }], [mount])).toBeUndefined();
    expect(withShm([{ name: 'shm', emptyDir: { medium: 'Memory' } }], [mount])).toBeUndefined();
    expect(withShm([{ name: 'shm', hostPath: { path: '/dev/shm' } }], [mount])).toBeUndefined();
  });
});

type Predictor = Record<string, unknown> & { containers?: Array<Record<string, unknown>> };
type PatchWrite = { patch: { spec: { predictor: unknown }; metadata: unknown } };

async function scenario(edit?: (o: { spec: { predictor: Predictor } }) => void) {
  const target = { namespace: 'llm', name: 'llama2-70b' };
  const { sim, report, ctx } = await diagnosedScenario(
    'llm-runtime-vllm-tp4-nccl-dev-shm-no-space',
    target,
    edit && ((o) => edit(o as unknown as { spec: { predictor: Predictor } })),
  );
  return { sim, shm: report.findings.find((f) => f.code === 'SHM_TOO_SMALL'), ctx };
}

describe('raise-shm', () => {
  it('a custom container (containers[0]): the exact YAML to add by hand, no button', async () => {
    const { shm } = await scenario();
    expect(shm?.remediation).toMatchObject({ action: 'manual', needsApproval: false });
    expect(shm!.remediation!.manual).toBe(
      [
        'kubectl -n llm edit inferenceservice llama2-70b',
        '# under spec.predictor:',
        '  volumes:',
        '  - name: dshm',
        '    emptyDir:',
        '      medium: Memory',
        '      sizeLimit: 2Gi',
        '# under spec.predictor.containers.0 (the model container):',
        '  volumeMounts:',
        '  - name: dshm',
        '    mountPath: /dev/shm',
      ].join('\n'),
    );
  });

  it('a model spec: one merge patch of the whole lists, the offer equal to the plan, dry run and no write', async () => {
    const { sim, shm, ctx } = await scenario((o) => {
      const c = o.spec.predictor.containers?.[0] ?? {};
      o.spec.predictor = {
        ...o.spec.predictor,
        containers: undefined,
        model: {
          modelFormat: { name: 'vllm' },
          args: c.args,
          resources: c.resources,
          env: c.env,
          volumeMounts: [cacheMount],
        },
        volumes: [cache],
      };
      delete o.spec.predictor.containers;
    });
    expect(shm?.remediation).toMatchObject({
      action: 'raise-shm',
      needsApproval: true,
      params: { podPath: ['spec', 'predictor'], containerPath: ['spec', 'predictor', 'model'] },
    });
    const action = ACTIONS['raise-shm'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(shm!.remediation!.params));
    expect(plan.changes.map((c) => c.path)).toEqual(['spec.predictor.model.volumeMounts', 'spec.predictor.volumes']);
    expect((plan.write as unknown as PatchWrite).patch.spec.predictor).toEqual({
      volumes: [cache, { name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '2Gi' } }],
      model: { volumeMounts: [cacheMount, { name: 'dshm', mountPath: '/dev/shm' }] },
    });
    expect((plan.write as unknown as PatchWrite).patch.metadata).toEqual({ resourceVersion: plan.resourceVersion });
    expect([...shm!.remediation!.diff!].sort()).toEqual(
      [
        ...plan.changes.flatMap((c) => [
          `  ${c.path}:`,
          `-   ${JSON.stringify(c.before)}`,
          `+   ${JSON.stringify(c.after)}`,
        ]),
      ].sort(),
    );
    expect(plan.risk).toBe('medium');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(action.label(plan, plan.params, 'SHM_TOO_SMALL')).toBe('Mount /dev/shm (2Gi)');
  });
});
