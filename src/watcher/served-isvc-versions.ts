/**
 * Which of the supported InferenceService API versions the cluster serves (discovery, `GET /apis`),
 * most preferred first, then the LLMInferenceService's on KServe 0.17+. When discovery is refused or fails, every supported version is assumed:
 * an informer on a version that is not served keeps retrying with backoff and harms nothing.
 */
import { ApisApi, type KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../core/error-message.js';
import { INFERENCE_SERVICE_VERSIONS, LLM_INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';

export async function servedIsvcVersions(
  kubeConfig: KubeConfig,
  warn?: (message: string) => void,
): Promise<CustomResource[]> {
  try {
    const groups = await kubeConfig.makeApiClient(ApisApi).getAPIVersions();
    const served = new Set(groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion)));
    const isvc = INFERENCE_SERVICE_VERSIONS.filter((r) => served.has(`${r.group}/${r.version}`));
    // KServe 0.17+ (v1alpha2 served): its LLMInferenceServices too, at their preferred version, after
    // the InferenceService versions (an InferenceService of the same name is the one watched)
    const llm = served.has('serving.kserve.io/v1alpha2') ? LLM_INFERENCE_SERVICE_VERSIONS.slice(0, 1) : [];
    return [...isvc, ...llm];
  } catch (error) {
    warn?.(`discovery failed (${errorMessage(error)}); watching every supported InferenceService version`);
    return [...INFERENCE_SERVICE_VERSIONS];
  }
}
