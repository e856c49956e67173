/**
 * BOT_FORBIDDEN findings for the reads the cluster refused: what was denied, where, and the RBAC rule
 * that would allow it. The other playbooks' results still show next to them.
 */
import type { TargetRef } from '../core/target-ref.js';
import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import { describeResource, type DeniedRequest } from '../kube/errors.js';
import { refOf } from '../kube/inference-service-view.js';

export function forbiddenFindings(denied: DeniedRequest[], target: TargetRef): Finding[] {
  return denied.map((d) => {
    const where = d.namespace ? ` in namespace ${d.namespace}` : ' cluster-wide';
    const rule = `- apiGroups: ["${d.group}"]\n  resources: ["${d.resource}"]\n  verbs: ["${d.verb}"]`;
    return finding('BOT_FORBIDDEN', {
      subject: refOf('InferenceService', target.namespace, target.name),
      title: `The bot may not ${d.verb} ${describeResource(d)}${where}, so a check could not run`,
      evidence: [
        {
          kind: 'note',
          ref: `RBAC ${d.namespace ? `Role in ${d.namespace}` : 'ClusterRole'}`,
          text: `denied: ${d.verb} ${describeResource(d)}${where}`,
        },
        { kind: 'note', ref: 'RBAC rule that would allow it', text: rule },
      ],
    });
  });
}
