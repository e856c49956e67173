/**
 * Which releases a snapshot's cluster runs and which kinds that installs: cluster.yaml when it
 * says, else inferred from the objects' groups and versions, their labels and images.
 */
import { resolveClusterProfile, type ClusterProfile } from '../../../src/simulator/api-catalog/cluster-profile.js';
import { SnapshotError } from '../../../src/snapshot/snapshot-error.js';

const obj = (apiVersion: string, kind: string, name = 'x', extra: Record<string, unknown> = {}) => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'default', ...extra },
});
const v1alpha2 = obj('serving.kubeflow.org/v1alpha2', 'InferenceService', 'sklearn-iris');
const kubeflowV1beta1 = obj('serving.kubeflow.org/v1beta1', 'InferenceService', 'flowers');
const kserve = obj('serving.kserve.io/v1beta1', 'InferenceService');

function versionsOf(profile: ClusterProfile, group: string, kind: string): string[] | undefined {
  return profile.kinds.find((k) => k.group === group && k.kind === kind)?.versions;
}

function groupsOf(profile: ClusterProfile): string[] {
  return [...new Set(profile.kinds.filter((k) => k.product !== 'kubernetes').map((k) => k.group))].sort();
}

describe('inferred from the objects', () => {
  it('a v1alpha2-only snapshot is a KFServing that serves only v1alpha2, without serving.kserve.io', () => {
    const profile = resolveClusterProfile([v1alpha2]);
    expect(profile.releases).toEqual({ kubernetes: '1.29', kfserving: '0.4' });
    expect(versionsOf(profile, 'serving.kubeflow.org', 'InferenceService')).toEqual(['v1alpha2']);
    expect(groupsOf(profile)).toEqual(['serving.kubeflow.org']);
  });

  it('a v1beta1 KFServing object means 0.5 or later: both versions served, v1beta1 preferred, TrainedModel too', () => {
    const profile = resolveClusterProfile([v1alpha2, kubeflowV1beta1]);
    expect(profile.releases.kfserving).toBe('0.6');
    expect(versionsOf(profile, 'serving.kubeflow.org', 'InferenceService')).toEqual(['v1beta1', 'v1alpha2']);
    expect(profile.kinds.find((k) => k.kind === 'InferenceService')?.conversion).toBe('kfserving-inferenceservice');
    expect(versionsOf(profile, 'serving.kubeflow.org', 'TrainedModel')).toEqual(['v1alpha1']);
  });

  it('any Knative Serving object installs the whole of Knative Serving, internal groups included', () => {
    const profile = resolveClusterProfile([obj('networking.internal.knative.dev/v1alpha1', 'Ingress')]);
    expect(groupsOf(profile)).toEqual([
      'autoscaling.internal.knative.dev',
      'caching.internal.knative.dev',
      'networking.internal.knative.dev',
      'serving.knative.dev',
    ]);
    expect(versionsOf(profile, 'serving.knative.dev', 'Service')).toEqual(['v1']);
  });

  it('v1alpha1 Knative objects pick a release that still serves them, one that reads them back unconverted', () => {
    const profile = resolveClusterProfile([obj('serving.knative.dev/v1alpha1', 'Service')]);
    expect(profile.releases.knative).toBe('0.12');
    expect(versionsOf(profile, 'serving.knative.dev', 'Service')).toEqual(['v1', 'v1beta1', 'v1alpha1']);
    expect(profile.kinds.find((k) => k.group === 'serving.knative.dev' && k.kind === 'Service')?.conversion).toBe(
      'none',
    );
  });

  it('follows release labels and image tags', () => {
    const knativeGateway = obj('networking.istio.io/v1alpha3', 'Gateway', 'knative-ingress-gateway', {
      labels: { 'serving.knative.dev/release': 'v0.14.3' },
    });
    const pod = {
      ...obj('v1', 'Pod', 'p'),
      spec: { containers: [{ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.9.5' }] },
    };
    const runtime = obj('serving.kserve.io/v1alpha1', 'ClusterServingRuntime', 'kserve-sklearnserver', {
      labels: { 'app.kubernetes.io/name': 'kserve', 'app.kubernetes.io/version': 'v0.9.0' },
    });
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { nodeInfo: { kubeletVersion: 'v1.21.14-eks-1' } },
    };
    const profile = resolveClusterProfile([
      knativeGateway,
      pod,
      runtime,
      node,
      obj('serving.knative.dev/v1', 'Revision'),
    ]);
    expect(profile.releases).toEqual({ kubernetes: '1.21', kserve: '0.9', knative: '0.14', istio: '1.9' });
    expect(versionsOf(profile, 'networking.istio.io', 'Gateway')).toEqual(['v1beta1', 'v1alpha3']);
    expect(versionsOf(profile, 'serving.kserve.io', 'InferenceGraph')).toEqual(['v1alpha1']);
    expect(versionsOf(profile, 'serving.kserve.io', 'ClusterStorageContainer')).toBeUndefined();
    expect(versionsOf(profile, 'networking.k8s.io', 'Ingress')).toEqual(['v1', 'v1beta1']);
  });

  it('rbac.istio.io objects mean an Istio of 1.5 or older; extensions/v1beta1 Ingress a Kubernetes of 1.21 or older', () => {
    const profile = resolveClusterProfile([
      obj('rbac.istio.io/v1alpha1', 'ServiceRole'),
      obj('extensions/v1beta1', 'Ingress'),
    ]);
    expect(profile.releases).toMatchObject({ istio: '1.5', kubernetes: '1.21' });
    expect(versionsOf(profile, 'autoscaling', 'HorizontalPodAutoscaler')).toEqual(['v1', 'v2beta2', 'v2beta1']);
  });

  it('installs nothing for groups it does not know (they are served as the objects arrive)', () => {
    expect(resolveClusterProfile([obj('example.com/v1', 'Thing')]).releases).toEqual({ kubernetes: '1.29' });
  });
});

describe('stated in cluster.yaml', () => {
  it('installs the stated releases even without objects', () => {
    const profile = resolveClusterProfile([], { kserve: '0.7', istio: '1.9', kubernetes: '1.20' });
    expect(profile.releases).toEqual({ kubernetes: '1.20', kserve: '0.7', istio: '1.9' });
    expect(versionsOf(profile, 'serving.kserve.io', 'ServingRuntime')).toBeUndefined();
    expect(versionsOf(profile, 'networking.k8s.io', 'Ingress')).toEqual(['v1', 'v1beta1']);
    expect(versionsOf(profile, 'events.k8s.io', 'Event')).toEqual(['v1', 'v1beta1']);
  });

  it('a stated release beats the inference: KFServing 0.5 serves a v1alpha2 snapshot at v1beta1 too', () => {
    expect(
      versionsOf(resolveClusterProfile([v1alpha2], { kfserving: '0.5' }), 'serving.kubeflow.org', 'InferenceService'),
    ).toEqual(['v1beta1', 'v1alpha2']);
  });

  it('an apiGroups list is the exact set of non-built-in groups (and versions) served', () => {
    const profile = resolveClusterProfile([v1alpha2], {
      kfserving: '0.6',
      apiGroups: ['serving.kubeflow.org/v1alpha2', 'networking.istio.io'],
    });
    expect(versionsOf(profile, 'serving.kubeflow.org', 'InferenceService')).toEqual(['v1alpha2']);
    expect(groupsOf(profile)).toEqual(['networking.istio.io', 'serving.kubeflow.org']);
    expect(versionsOf(profile, 'apps', 'Deployment')).toEqual(['v1']);
  });

  it.each([
    [
      { kfserving: '0.4' },
      [kubeflowV1beta1],
      '/s/cluster.yaml: `kfserving`: KFServing 0.4 does not serve serving.kubeflow.org/v1beta1 InferenceService (InferenceService default/flowers in objects.yaml)',
    ],
    [{ kserve: '0.3' }, [], '/s/cluster.yaml: `kserve`: 0.3 is not a KServe release the simulator knows (0.7 to 0.20)'],
    [
      { apiGroups: ['serving.kubeflow.org'] },
      [kserve],
      '/s/cluster.yaml: `apiGroups`: does not list serving.kserve.io, which InferenceService default/x in objects.yaml needs',
    ],
    [
      { apiGroups: ['serving.kubeflow.org/v1beta1'] },
      [v1alpha2],
      '/s/cluster.yaml: `apiGroups`: does not list serving.kubeflow.org/v1alpha2, which InferenceService default/sklearn-iris in objects.yaml needs',
    ],
    [
      { apiGroups: ['serving.kserve.io'] },
      [kserve, obj('example.com/v1', 'Thing')],
      '/s/cluster.yaml: `apiGroups`: does not list example.com, which Thing default/x in objects.yaml needs',
    ],
  ])('contradicting the objects (%j) is one line naming the file and the key', (cluster, objects, message) => {
    expect(() => resolveClusterProfile(objects, cluster, '/s/cluster.yaml')).toThrow(
      new SnapshotError(message.replace(/^\/s\/cluster\.yaml: /, ''), '/s/cluster.yaml'),
    );
  });
});

describe('KServe 0.16+ and its LLMInferenceService component', () => {
  const llmisvc = obj('serving.kserve.io/v1alpha2', 'LLMInferenceService', 'qwen');

  it('a stated kserve: 0.20 serves LLMInferenceService at v1alpha2 and v1alpha1, and the stack it runs with', () => {
    const profile = resolveClusterProfile([], { kserve: '0.20' });
    expect(profile.releases).toEqual({
      kubernetes: '1.29',
      kserve: '0.20',
      gatewayApi: '1.5',
      inferenceExtension: '1.5',
      lws: '0.8',
      keda: '2.18',
    });
    expect(versionsOf(profile, 'serving.kserve.io', 'LLMInferenceService')).toEqual(['v1alpha2', 'v1alpha1']);
    expect(versionsOf(profile, 'serving.kserve.io', 'LLMInferenceServiceConfig')).toEqual(['v1alpha2', 'v1alpha1']);
    expect(versionsOf(profile, 'inference.networking.k8s.io', 'InferencePool')).toEqual(['v1']);
    expect(versionsOf(profile, 'inference.networking.x-k8s.io', 'InferencePool')).toEqual(['v1alpha2']);
    expect(versionsOf(profile, 'leaderworkerset.x-k8s.io', 'LeaderWorkerSet')).toEqual(['v1']);
    expect(versionsOf(profile, 'gateway.networking.k8s.io', 'HTTPRoute')).toEqual(['v1', 'v1beta1']);
    expect(versionsOf(profile, 'gateway.networking.k8s.io', 'GatewayClass')).toEqual(['v1', 'v1beta1']);
    expect(versionsOf(profile, 'keda.sh', 'ScaledObject')).toEqual(['v1alpha1']);
  });

  it('KServe 0.16 serves only v1alpha1, with the v1alpha2 InferencePool of its extension and no v1 pool', () => {
    const profile = resolveClusterProfile([], { kserve: '0.16' });
    expect(versionsOf(profile, 'serving.kserve.io', 'LLMInferenceService')).toEqual(['v1alpha1']);
    expect(versionsOf(profile, 'inference.networking.x-k8s.io', 'InferencePool')).toEqual(['v1alpha2']);
    expect(versionsOf(profile, 'inference.networking.x-k8s.io', 'InferenceModel')).toEqual(['v1alpha2']);
    expect(versionsOf(profile, 'inference.networking.k8s.io', 'InferencePool')).toBeUndefined();
  });

  it('a stated companion release wins over the stack; apiGroups still decides what is served', () => {
    const profile = resolveClusterProfile([], {
      kserve: '0.20',
      gatewayApi: '1.2',
      apiGroups: ['serving.kserve.io', 'gateway.networking.k8s.io', 'inference.networking.k8s.io'],
    });
    expect(profile.releases.gatewayApi).toBe('1.2');
    expect(versionsOf(profile, 'gateway.networking.k8s.io', 'BackendTLSPolicy')).toBeUndefined();
    expect(versionsOf(profile, 'leaderworkerset.x-k8s.io', 'LeaderWorkerSet')).toBeUndefined();
    expect(versionsOf(profile, 'keda.sh', 'ScaledObject')).toBeUndefined();
  });

  it('inferred: an InferenceService alone means no LLM component; an LLMInferenceService brings it and its stack', () => {
    const plain = resolveClusterProfile([kserve]);
    expect(versionsOf(plain, 'serving.kserve.io', 'LLMInferenceService')).toBeUndefined();
    expect(groupsOf(plain)).toEqual(['serving.kserve.io']);
    const llm = resolveClusterProfile([kserve, llmisvc]);
    expect(llm.releases).toMatchObject({ kserve: '0.20', gatewayApi: '1.5', lws: '0.8' });
    expect(versionsOf(llm, 'serving.kserve.io', 'LLMInferenceService')).toEqual(['v1alpha2', 'v1alpha1']);
  });

  it('a KServe older than 0.16 stated with Gateway API objects serves those at their own release', () => {
    const profile = resolveClusterProfile([obj('gateway.networking.k8s.io/v1', 'HTTPRoute')], { kserve: '0.15' });
    expect(profile.releases).toEqual({ kubernetes: '1.29', kserve: '0.15', gatewayApi: '1.5' });
    expect(versionsOf(profile, 'serving.kserve.io', 'LLMInferenceService')).toBeUndefined();
  });

  it('refuses a v1alpha2 LLMInferenceService on a stated KServe 0.16', () => {
    expect(() => resolveClusterProfile([llmisvc], { kserve: '0.16' }, '/s/cluster.yaml')).toThrow(
      new SnapshotError(
        '`kserve`: KServe 0.16 does not serve serving.kserve.io/v1alpha2 LLMInferenceService (LLMInferenceService default/qwen in objects.yaml)',
        '/s/cluster.yaml',
      ),
    );
  });
});
