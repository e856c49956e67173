/**
 * raise-shm (SHM_TOO_SMALL): gives the model container a /dev/shm NCCL fits in: a memory-backed
 * emptyDir (`medium: Memory`, `sizeLimit: 2Gi`) added to the component's `volumes` and mounted at
 * /dev/shm in the model's `volumeMounts`, or the sizeLimit of the emptyDir already mounted there
 * raised to 2Gi (`src/changes/shm-volume.ts`). Both are lists a merge patch replaces whole: the
 * proposal shows each whole list before and after, the new lists are the live ones with one entry
 * added (or one sizeLimit raised) and nothing else changed, and the patch is pinned to the
 * resourceVersion they were read at (an edit in between gets 409 and a re-plan; the approval's dry
 * run must change exactly the planned fields). A custom container (`containers[0]`, a list item a
 * merge patch cannot reach without replacing the whole container) gets the exact YAML to add by
 * hand instead. Risk: medium (a new pod rolls out; the tmpfs counts against the container's memory
 * limit, up to 2Gi of it).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { diffLines, mergePatchAt, valueAt } from '../../changes/field-changes.js';
import { applyMergePatch } from '../../changes/merge-patch.js';
import { RemediationError } from '../../changes/remediation-error.js';
import { SHM_PATH, SHM_SIZE, type ShmChange, withShm } from '../../changes/shm-volume.js';
import type { Remediation } from '../../findings/types.js';
import { componentsOf, refOf } from '../../kube/inference-service-view.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** The component's pod spec, e.g. ["spec","predictor"] (its `volumes`). */
  podPath: z.array(z.string().min(1)).min(2).max(4),
  /** The model container inside it, e.g. ["spec","predictor","model"] (its `volumeMounts`). */
  containerPath: z.array(z.string().min(1)).min(3).max(6),
});
type Params = z.infer<typeof params>;

const inList = (path: readonly string[]) => path.some((k) => /^\d+$/.test(k));

function changesOf(path: Params, c: ShmChange) {
  return [
    { path: [...path.podPath, 'volumes'].join('.'), before: c.volumes.before, after: c.volumes.after },
    ...(c.volumeMounts
      ? [
          {
            path: [...path.containerPath, 'volumeMounts'].join('.'),
            before: c.volumeMounts.before,
            after: c.volumeMounts.after,
          },
        ]
      : []),
  ];
}

/** The YAML to add by hand where a merge patch cannot reach (a container in a list). */
function manualYaml(ns: string, name: string, p: Params, c: ShmChange): string {
  const added = c.volumes.after.find((v, i) => JSON.stringify(v) !== JSON.stringify(c.volumes.before[i]));
  const volumeName = String(added?.name ?? 'dshm');
  return [
    `kubectl -n ${ns} edit inferenceservice ${name}`,
    `# under ${p.podPath.join('.')}:`,
    '  volumes:',
    `  - name: ${volumeName}`,
    '    emptyDir:',
    '      medium: Memory',
    `      sizeLimit: ${SHM_SIZE}`,
    ...(c.volumeMounts
      ? [
          `# under ${p.containerPath.join('.')} (the model container):`,
          '  volumeMounts:',
          `  - name: ${volumeName}`,
          `    mountPath: ${SHM_PATH}`,
        ]
      : []),
  ].join('\n');
}

function offer(ctx: OfferContext, input: { component: string | undefined }): Remediation | null {
  const components = componentsOf(ctx.target.isvc);
  const component = components.find((c) => c.name === (input.component ?? 'predictor') && !c.canary) ?? components[0];
  if (!component) return null;
  const containerPath = component.modelPath;
  const podPath = inList(containerPath) ? containerPath.slice(0, -2) : containerPath.slice(0, -1);
  const p: Params = { component: component.name, podPath, containerPath };
  const change = withShm(
    valueAt(ctx.target.isvc, [...podPath, 'volumes']),
    valueAt(ctx.target.isvc, [...containerPath, 'volumeMounts']),
  );
  if (!change) return null;
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const why = `NCCL's shared-memory segments do not fit in the runtime's default 64 MiB /dev/shm`;
  if (inList(containerPath) || containerPath.length !== 3 || containerPath[0] !== 'spec')
    return {
      action: 'manual',
      summary: `By hand: ${change.summary} (${containerPath.join('.')} is a container in a list, which a merge patch cannot reach without replacing it whole): ${why}`,
      target,
      needsApproval: false,
      manual: manualYaml(ctx.target.namespace, ctx.target.name, p, change),
    };
  const offered: ActionOffer<Params> = {
    action: 'raise-shm',
    summary: `${change.summary[0]?.toUpperCase()}${change.summary.slice(1)} for the ${component.name}: ${why}`,
    target,
    diff: diffLines(changesOf(p, change)),
    needsApproval: true,
    params: p,
  };
  return offered;
}

export const raiseShm: OfferingAction<Params, { component: string | undefined }> = {
  ...patchAction<Params>({
    id: 'raise-shm',
    title: 'Mount a 2Gi memory-backed /dev/shm for NCCL',
    label: () => `Mount /dev/shm (${SHM_SIZE})`,
    params,
    locate: locateInferenceService,
    build(live, p) {
      const shape =
        p.podPath[0] === 'spec' &&
        p.podPath.length === 2 &&
        p.containerPath.length === 3 &&
        p.containerPath.slice(0, 2).join('.') === p.podPath.join('.');
      if (!shape)
        throw new RemediationError('REMEDIATION_BAD_PARAMS', 'podPath / containerPath do not fit a v1beta1 component');
      if (inList(p.containerPath))
        throw new RemediationError(
          'REMEDIATION_NOT_APPLICABLE',
          `${p.containerPath.join('.')} is inside a list, which a merge patch cannot reach; edit it by hand`,
        );
      const change = withShm(
        valueAt(live, [...p.podPath, 'volumes']),
        valueAt(live, [...p.containerPath, 'volumeMounts']),
      );
      if (!change)
        throw new RemediationError(
          'REMEDIATION_NOTHING_TO_CHANGE',
          `${SHM_PATH} already has ${SHM_SIZE} or more, or is not an emptyDir`,
        );
      const patch = changesOf(p, change).reduce<Record<string, unknown>>(
        (acc, c) => applyMergePatch(acc, mergePatchAt(c.path.split('.'), c.after)) as Record<string, unknown>,
        {},
      );
      return {
        patch,
        summary: `${change.summary[0]?.toUpperCase()}${change.summary.slice(1)} on the ${p.component}`,
        risk: 'medium',
        riskNote: `A new pod rolls out; /dev/shm is memory (tmpfs): what NCCL writes there counts against the container's memory limit, up to ${SHM_SIZE}. The volumes and volumeMounts lists are replaced whole: the ones shown, every other entry unchanged.`,
      };
    },
  }),
  offer,
};
