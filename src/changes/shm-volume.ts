/**
 * A pod's /dev/shm made large enough for NCCL: a memory-backed emptyDir (`medium: Memory`,
 * `sizeLimit: 2Gi`) mounted at /dev/shm, added to the volumes and the container's volumeMounts, or
 * an emptyDir already mounted there with a smaller sizeLimit raised to 2Gi. Both are lists a merge
 * patch replaces whole: the change is the lists as they are with one entry added (or one sizeLimit
 * raised), every other entry kept as it is; the patch is pinned to the resourceVersion it was
 * computed from, so an edit made in between gets 409 instead of being dropped. Pure: offer and plan
 * compute the same lists.
 */
import { parseMemory } from '../core/memory-quantity.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

export const SHM_PATH = '/dev/shm';
export const SHM_SIZE = '2Gi';
const SHM_VOLUME = 'dshm';

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export interface ShmChange {
  volumes: { before: Obj[]; after: Obj[] };
  /** Absent when the mount is already there (only its volume's sizeLimit changes). */
  volumeMounts?: { before: Obj[]; after: Obj[] };
  /** "add dshm (emptyDir medium: Memory, sizeLimit 2Gi) at /dev/shm" / "raise dshm's sizeLimit 64Mi → 2Gi". */
  summary: string;
}

/** The volumes and mounts with /dev/shm at 2Gi; undefined when /dev/shm already has that much or is not an emptyDir (nothing safe to change). */
export function withShm(volumesIn: unknown, mountsIn: unknown): ShmChange | undefined {
  const volumes = list(volumesIn);
  const mounts = list(mountsIn);
  const mount = mounts.find((m) => m.mountPath === SHM_PATH);
  if (mount) {
    const i = volumes.findIndex((v) => v.name === mount.name);
    const volume = volumes[i];
    const emptyDir = volume && isObj(volume.emptyDir) ? volume.emptyDir : undefined;
    const size = typeof emptyDir?.sizeLimit === 'string' ? emptyDir.sizeLimit : undefined;
    const bytes = parseMemory(size);
    if (!volume || !emptyDir || size === undefined || bytes === undefined || bytes >= (parseMemory(SHM_SIZE) ?? 0))
      return undefined;
    const after = volumes.map((v, j) =>
      j === i ? { ...v, emptyDir: { ...emptyDir, medium: 'Memory', sizeLimit: SHM_SIZE } } : v,
    );
    return {
      volumes: { before: volumes, after },
      summary: `raise ${String(volume.name)}'s sizeLimit (mounted at ${SHM_PATH}) from ${size} to ${SHM_SIZE}`,
    };
  }
  const names = new Set(volumes.map((v) => v.name));
  const name = names.has(SHM_VOLUME) ? `${SHM_VOLUME}-nccl` : SHM_VOLUME;
  if (names.has(name)) return undefined;
  return {
    volumes: { before: volumes, after: [...volumes, { name, emptyDir: { medium: 'Memory', sizeLimit: SHM_SIZE } }] },
    volumeMounts: { before: mounts, after: [...mounts, { name, mountPath: SHM_PATH }] },
    summary: `mount an emptyDir ${name} (medium: Memory, sizeLimit: ${SHM_SIZE}) at ${SHM_PATH}`,
  };
}
