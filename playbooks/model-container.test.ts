/**
 * model-container on the model server's container: its last termination decides OOM_KILLED (with the
 * memory limit and the raise offered) or CRASH_LOOP; the crash log (or the termination message that
 * holds its tail) matched against the `model-log` signatures names the cause the crash loop follows
 * from, and an LLM runtime's line carries the fix its numbers decide (the KV cache's tokens); a
 * container that runs but is never ready is said with the kubelet's probe events and the probe it
 * fails. Image problems, sidecars, a ready server and one not ready without probe failures are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { modelContainer } from './model-container.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const POD = 'iris-predictor-7d9c8b6f5-x2k4p';
const SUBJECT = `Pod ml/${POD}`;
const IMAGE = 'kserve/sklearnserver:v0.14.1';

function isvc(model: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'iris',
      namespace: 'ml',
      generation: 1,
      annotations: { 'serving.kserve.io/deploymentMode': 'RawDeployment' },
    },
    spec: {
      predictor: {
        model: {
          modelFormat: { name: 'sklearn' },
          storageUri: 'gs://acme-models/sklearn/iris',
          resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '1', memory: '2Gi' } },
          ...model,
        },
      },
    },
    status: {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'False', reason: 'MinimumReplicasUnavailable' }],
    },
  };
}

type ContainerStatus = Record<string, unknown>;

function pod(status: ContainerStatus, container: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: 'ml',
      labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
    },
    spec: {
      containers: [
        {
          name: 'kserve-container',
          image: IMAGE,
          args: ['--model_name=iris', '--model_dir=/mnt/models', '--http_port=8080'],
          ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
          resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '1', memory: '2Gi' } },
          ...container,
        },
      ],
    },
    status: {
      phase: 'Running',
      containerStatuses: [{ name: 'kserve-container', image: IMAGE, ready: false, restartCount: 0, ...status }],
    },
  };
}

const backingOff = (last: Record<string, unknown>, restartCount = 3): ContainerStatus => ({
  restartCount,
  state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
  lastState: { terminated: { exitCode: 1, reason: 'Error', ...last } },
});

const TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/sklearnserver/sklearnserver/model.py", line 36, in load',
  '    model_file = next(path for path in paths if os.path.exists(path))',
  'StopIteration',
  '',
].join('\n');

function event(reason: string, message: string, count: number) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${POD}.${reason.toLowerCase()}`, namespace: 'ml' },
    involvedObject: { kind: 'Pod', name: POD, namespace: 'ml', fieldPath: 'spec.containers{kserve-container}' },
    type: 'Warning',
    reason,
    message,
    count,
    lastTimestamp: '2026-11-02T09:05:00Z',
  };
}

const ours = (codes: string[]) => codes.filter((c) => modelContainer.emits.includes(c as never));

describe('model-container', () => {
  it('reports an OOMKilled container with its memory limit and offers to raise it', async () => {
    const { report } = await runPlaybook(
      modelContainer,
      [isvc(), pod(backingOff({ reason: 'OOMKilled', exitCode: 137 }))],
      TARGET,
    );
    expect(report.rootCause).toBe('OOM_KILLED');
    expect(ours(report.findings.map((f) => f.code))).toEqual(['OOM_KILLED', 'CRASH_LOOP']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ code: 'OOM_KILLED', severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        'kserve-container: OOMKilled, exit code 137, 3 restart(s), memory limit 2Gi',
        'lastState.terminated.reason: OOMKilled, exitCode: 137',
      ]),
    );
    expect(f.remediation).toMatchObject({
      action: 'raise-memory-limit',
      target: 'InferenceService ml/iris',
      params: { component: 'predictor', from: '2Gi' },
    });
  });

  it('names the cause a crash log shows, and the crash loop it explains, with restart-pods offered for after', async () => {
    const { report } = await runPlaybook(modelContainer, [isvc(), pod(backingOff({}))], TARGET, {
      logs: { [`ml/${POD}/kserve-container`]: TRACEBACK },
    });
    expect(report.rootCause).toBe('MODEL_FILE_MISSING');
    const cause = report.findings.find((f) => f.code === 'MODEL_FILE_MISSING')!;
    expect(cause).toMatchObject({ subject: SUBJECT, component: 'predictor' });
    expect(cause.explains).toEqual(expect.arrayContaining(['CRASH_LOOP']));
    expect(cause.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        container: 'kserve-container',
        excerpt: expect.arrayContaining(['StopIteration']),
      }),
    );
    const loop = report.findings.find((f) => f.code === 'CRASH_LOOP')!;
    expect(loop).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(loop.evidence[0]).toMatchObject({
      kind: 'field',
      text: 'kserve-container: CrashLoopBackOff, exit code 1, 3 restart(s), memory limit 2Gi',
    });
    expect(loop.remediation).toMatchObject({ action: 'restart-pods' });
    expect(ours(report.findings.map((f) => f.code))).not.toContain('OOM_KILLED');
  });

  it('matches the termination message when the crashed instance left no log', async () => {
    const { report } = await runPlaybook(modelContainer, [isvc(), pod(backingOff({ message: TRACEBACK }))], TARGET);
    const cause = report.findings.find((f) => f.code === 'MODEL_FILE_MISSING')!;
    expect(cause.subject).toBe(SUBJECT);
    const loop = report.findings.find((f) => f.code === 'CRASH_LOOP')!;
    expect(loop.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        text: 'termination message',
        excerpt: expect.arrayContaining(['StopIteration']),
      }),
    );
  });

  it("offers --max-model-len set to the tokens vLLM's KV cache holds", async () => {
    const line =
      "ValueError: The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.";
    const { report } = await runPlaybook(
      modelContainer,
      [isvc({ modelFormat: { name: 'huggingface' }, args: ['--max-model-len=29000'] }), pod(backingOff({}))],
      TARGET,
      {
        logs: {
          [`ml/${POD}/kserve-container`]: `INFO 11-02 09:01:10 model_runner.py:1072] Loading model weights took 14.99 GB\n${line}\n`,
        },
      },
    );
    expect(report.rootCause).toBe('KV_CACHE_TOO_SMALL');
    const f = report.findings.find((x) => x.code === 'KV_CACHE_TOO_SMALL')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', excerpt: expect.arrayContaining([line]) }),
    );
    expect(f.remediation).toMatchObject({ action: 'lower-max-model-len', params: { tokens: 23648 } });
  });

  it('reports a container that runs but never passes its readiness probe, with the probe and the events', async () => {
    const probe = 'Readiness probe failed: HTTP probe failed with statuscode: 503';
    const { report } = await runPlaybook(
      modelContainer,
      [
        isvc(),
        pod(
          { state: { running: { startedAt: '2026-11-02T09:00:10Z' } } },
          { readinessProbe: { httpGet: { path: '/v1/models/iris', port: 8080 } } },
        ),
        event('Unhealthy', probe, 42),
      ],
      TARGET,
      {
        logs: {
          [`ml/${POD}/kserve-container`]:
            'INFO:kserve:Loading model iris\nWARNING:kserve:waiting for the model to load\n',
        },
      },
    );
    const f = report.findings.find((x) => x.code === 'READINESS_PROBE_FAILING')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'probe',
        container: 'kserve-container',
        text: 'kserve-container readiness probe: httpGet /v1/models/iris port 8080',
      }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: 'kserve-container containerPort: 8080' }),
    );
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'event', text: `Unhealthy: ${probe} (x42)` }));
  });

  it('leaves alone an image that cannot be pulled, a ready server, and one not ready without probe failures', async () => {
    const pulling = await runPlaybook(
      modelContainer,
      [
        isvc(),
        pod({ state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }),
      ],
      TARGET,
    );
    expect(ours(pulling.codes)).toEqual([]);
    const ready = await runPlaybook(
      modelContainer,
      [isvc(), pod({ ready: true, state: { running: { startedAt: '2026-11-02T09:00:10Z' } } })],
      TARGET,
    );
    expect(ours(ready.codes)).toEqual([]);
    const starting = await runPlaybook(
      modelContainer,
      [isvc(), pod({ state: { running: { startedAt: '2026-11-02T09:00:10Z' } } })],
      TARGET,
    );
    expect(ours(starting.codes)).toEqual([]);
  });
});
