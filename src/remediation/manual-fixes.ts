/**
 * Fixes the bot will not apply itself (they change cluster-wide security settings): shown as text
 * with the YAML, no button (`action: 'manual'`, `needsApproval: false`). From the debug guide:
 * probes blocked by auth on the ingress gateway (401/302) or by Istio RBAC (403).
 */
import type { Remediation } from '../findings/types.js';

export function probeAuthManualFix(namespace: string): Remediation {
  return {
    action: 'manual',
    summary:
      "Let the Knative probes through the gateway's auth: exempt the probe path / user agent from the auth filter, or upgrade Knative (best-effort probes: 0.11.2, 0.14.0+)",
    needsApproval: false,
    manual: [
      "# Istio AuthorizationPolicy on the ingress gateway: allow Knative's prober before the auth (CUSTOM/ext-authz) rule",
      'apiVersion: security.istio.io/v1beta1',
      'kind: AuthorizationPolicy',
      'metadata: {name: allow-knative-probes, namespace: istio-system}',
      'spec:',
      '  selector: {matchLabels: {istio: ingressgateway}}',
      '  action: ALLOW',
      '  rules:',
      '  - to: [{operation: {paths: ["/healthz", "/"]}}]',
      '    when: [{key: request.headers[k-network-probe], values: ["probe"]}]',
      `# then: kubectl -n ${namespace} get ksvc   # Ready once the probes pass`,
    ].join('\n'),
  };
}

export function probeRbacManualFix(namespace: string): Remediation {
  return {
    action: 'manual',
    summary: `Allow the Knative probes under Istio RBAC in namespace ${namespace} (or upgrade Knative to 0.11.2 / 0.14.0+ for best-effort probes)`,
    needsApproval: false,
    manual: [
      `# Istio >= 1.4: an AuthorizationPolicy in ${namespace} that lets the probes (and the activator) in`,
      'apiVersion: security.istio.io/v1beta1',
      'kind: AuthorizationPolicy',
      `metadata: {name: allow-knative-probes, namespace: ${namespace}}`,
      'spec:',
      '  action: ALLOW',
      '  rules:',
      '  - from: [{source: {namespaces: ["knative-serving", "istio-system"]}}]',
      '# Istio RBAC (ClusterRbacConfig, older Istio): check the mode and inclusion list',
      '#   kubectl edit clusterrbacconfig default   # see kubeflow/kfserving#1153',
    ].join('\n'),
  };
}
