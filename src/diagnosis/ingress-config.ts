/**
 * The `ingress` key of KServe's / KFServing's inferenceservice-config ConfigMap (in kserve,
 * kfserving-system or kubeflow): the Gateway, the gateway Service, the ingress class and domain the
 * controller builds routes with, and whether it writes Gateway API HTTPRoutes (enableGatewayApi).
 */
import { refOf } from '../kube/inference-service-view.js';
import type { DiagnosisContext } from './playbook.js';

/** Where KServe / KFServing installs its controller and the inferenceservice-config ConfigMap. */
export const CONFIG_NAMESPACES = ['kserve', 'kfserving-system', 'kubeflow'] as const;

export interface IngressConfig {
  /** "ConfigMap NS/inferenceservice-config" */
  ref: string;
  namespace: string;
  /** The parsed `ingress` key (empty when the key is absent or not JSON). */
  values: Record<string, unknown>;
  /** Whether the ConfigMap has an `ingress` key at all. */
  hasKey: boolean;
}

/** The first inferenceservice-config the bot can read, with its `ingress` key parsed; undefined when none. */
export async function ingressConfigOf(ctx: DiagnosisContext): Promise<IngressConfig | undefined> {
  const maps = await Promise.all(
    CONFIG_NAMESPACES.map((ns) => ctx.reader.configMap(ns, 'inferenceservice-config').catch(() => null)),
  );
  const cm = maps.find((m) => m);
  if (!cm) return undefined;
  const namespace = cm.metadata?.namespace ?? CONFIG_NAMESPACES[0];
  const raw = cm.data?.ingress;
  let values: Record<string, unknown> = {};
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
    } catch {
      values = {};
    }
  }
  return {
    ref: refOf('ConfigMap', namespace, 'inferenceservice-config'),
    namespace,
    values,
    hasKey: raw !== undefined,
  };
}

/** A string value of the ingress key ("" and non-strings read as absent). */
export function ingressValue(config: IngressConfig | undefined, key: string): string | undefined {
  const v = config?.values[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** "istio-ingressgateway.istio-system.svc.cluster.local" → {name, namespace}; undefined for another form. */
export function serviceHostRef(host: string | undefined): { name: string; namespace: string } | undefined {
  const m = host ? /^([a-z0-9-]+)\.([a-z0-9-]+)(?:\.svc(?:\.[\w.-]+)?)?$/.exec(host) : null;
  const [, name, namespace] = m ?? [];
  return name && namespace ? { name, namespace } : undefined;
}
