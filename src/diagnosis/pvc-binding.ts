/**
 * A pvc:// model path that is not on the volume: which volume the claim bound to, read from the
 * claim (storageClassName, volumeName) and the PersistentVolume (its class, its source, whether a
 * provisioner made it for this claim: a new volume holds nothing until something writes to it),
 * and the PersistentVolumes still Available (the one that holds the model, when the claim asked for
 * another class and so got a new, empty volume). The next step names the claim, the volume and the
 * fields that bind them.
 */
import type { V1PersistentVolume, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { editCommand } from '../findings/next-step-context.js';
import type { Evidence } from '../findings/types.js';
import { refOf } from '../kube/inference-service-view.js';
import { fieldPathOf } from './field-path.js';
import type { DiagnosisContext } from './playbook.js';

export interface PvcBinding {
  evidence: Evidence[];
  next: string;
}

/** pvc://claim/path → {claim, path}. */
export function pvcUriParts(uri: string | undefined): { claim: string; path: string } | undefined {
  const m = uri ? /^pvc:\/\/([^/]+)\/?(.*)$/.exec(uri) : null;
  return m?.[1] ? { claim: m[1], path: m[2] ?? '' } : undefined;
}

/** What the claim of a pvc:// storageUri is bound to; undefined when it is not bound or cannot be read. */
export async function pvcBinding(
  ctx: DiagnosisContext,
  storageUri: string | undefined,
  component: string | undefined,
): Promise<PvcBinding | undefined> {
  const parts = pvcUriParts(storageUri);
  if (!parts) return undefined;
  const ns = ctx.target.namespace;
  const pvc = await ctx.reader.persistentVolumeClaim(ns, parts.claim).catch(() => null);
  if (pvc?.status?.phase !== 'Bound' || !pvc.spec?.volumeName) return undefined;
  const volumes = await ctx.reader.persistentVolumes().catch(() => [] as V1PersistentVolume[]);
  const bound = volumes.find((v) => v.metadata?.name === pvc.spec?.volumeName);
  const others = volumes.filter(
    (v) => v.metadata?.name !== pvc.spec?.volumeName && ['Available', 'Released'].includes(v.status?.phase ?? ''),
  );
  const claimClass = classOf(pvc);
  const evidence: Evidence[] = [
    {
      kind: 'field',
      ref: refOf('PersistentVolumeClaim', ns, parts.claim),
      text: `storageClassName: ${claimClass}; volumeName: ${pvc.spec.volumeName}; status.phase: Bound${pvc.metadata?.creationTimestamp ? `; created ${iso(pvc.metadata.creationTimestamp)}` : ''}`,
    },
    ...(bound
      ? [{ kind: 'field' as const, ref: refOf('PersistentVolume', '', pvName(bound)), text: volumeText(bound) }]
      : []),
    ...others
      .slice(0, 3)
      .map((v) => ({ kind: 'field' as const, ref: refOf('PersistentVolume', '', pvName(v)), text: volumeText(v) })),
  ];
  const provisioner = bound?.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'];
  const boundSaid = `PersistentVolume ${pvc.spec.volumeName} (storageClassName ${bound ? classOf(bound) : claimClass}${provisioner ? `, provisioned by ${provisioner} for this claim, so it held nothing until something wrote to it` : ''}${bound ? `, ${sourceOf(bound)}` : ''})`;
  const path = parts.path ? `${parts.path}/` : 'the model';
  const candidate = others[0];
  const copy = `copy ${path} onto that volume (a pod that mounts claim ${parts.claim})`;
  const then = 'Then delete the failed pod, where one is left, so the storage-initializer runs again';
  // a volume made for this claim while one that was made by hand waits unbound: the claim bound to the wrong one
  if (provisioner && candidate)
    return {
      evidence,
      next: `/${parts.path} is not on the volume claim ${parts.claim} is bound to: ${boundSaid}, while PersistentVolume ${pvName(candidate)} (storageClassName ${classOf(candidate)}, ${sourceOf(candidate)}) is ${candidate.status?.phase}. Recreate claim ${parts.claim} in ${ns} with spec.storageClassName: ${classOf(candidate)} and spec.volumeName: ${pvName(candidate)} (kubectl get pvc ${parts.claim} -n ${ns} -o yaml, delete it, set both fields, apply it again${candidate.status?.phase === 'Released' ? '; a Released volume binds again once its spec.claimRef is removed' : ''}), or ${copy}. ${then}`,
    };
  const storageUriPath = fieldPathOf(ctx.target.isvc, component, 'storageUri');
  return {
    evidence,
    next: `/${parts.path} is not on the volume claim ${parts.claim} is bound to: ${boundSaid}. ${capital(copy)}; if it is there under another path, ${editCommand(ctx.target)}: set ${storageUriPath} to pvc://${parts.claim}/ and the path that holds it; if it is on another PersistentVolume, recreate claim ${parts.claim} with that volume's storageClassName and spec.volumeName (kubectl get pv lists them with their class). ${then}`,
  };
}

function classOf(o: V1PersistentVolumeClaim | V1PersistentVolume): string {
  const c = o.spec?.storageClassName;
  return c === undefined || c === null ? '(none)' : c === '' ? '""' : c;
}

function pvName(v: V1PersistentVolume): string {
  return v.metadata?.name ?? '?';
}

function volumeText(v: V1PersistentVolume): string {
  const provisioner = v.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'];
  const claim = v.spec?.claimRef ? `; claimRef: ${v.spec.claimRef.namespace}/${v.spec.claimRef.name}` : '';
  return `storageClassName: ${classOf(v)}; ${sourceOf(v)}; status.phase: ${v.status?.phase ?? '?'}${claim}${provisioner ? `; provisioned by ${provisioner}` : ''}${v.metadata?.creationTimestamp ? `; created ${iso(v.metadata.creationTimestamp)}` : ''}`;
}

/** The volume's backing store as its spec names it (nfs server:path, a cloud disk, a CSI handle, a host path). */
function sourceOf(v: V1PersistentVolume): string {
  const s = v.spec;
  if (s?.nfs) return `nfs ${s.nfs.server}:${s.nfs.path}`;
  if (s?.csi) return `csi ${s.csi.driver} ${s.csi.volumeHandle}`;
  if (s?.awsElasticBlockStore) return `awsElasticBlockStore ${s.awsElasticBlockStore.volumeID}`;
  if (s?.gcePersistentDisk) return `gcePersistentDisk ${s.gcePersistentDisk.pdName}`;
  if (s?.azureDisk) return `azureDisk ${s.azureDisk.diskName}`;
  if (s?.azureFile) return `azureFile ${s.azureFile.shareName}`;
  if (s?.hostPath) return `hostPath ${s.hostPath.path}`;
  if (s?.local) return `local ${s.local.path}`;
  const kind = Object.keys(s ?? {}).find(
    (k) =>
      ![
        'accessModes',
        'capacity',
        'claimRef',
        'persistentVolumeReclaimPolicy',
        'storageClassName',
        'volumeMode',
        'nodeAffinity',
        'mountOptions',
      ].includes(k),
  );
  return kind ?? 'source unknown';
}

function iso(t: Date | string): string {
  return typeof t === 'string' ? t : t.toISOString().replace('.000Z', 'Z');
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
