/**
 * Which of the supported InferenceService API versions the cluster serves (discovery, `GET /apis`),
 * most preferred first. When discovery is refused or fails, every supported version is assumed:
 * an informer on a version that is not served keeps retrying with backoff and harms nothing.
 */
import { ApisApi, type KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../core/error-message.js';
import { INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';

export async function servedIsvcVersions(kubeConfig: KubeConfig, warn?: (message: string) => void): Promise<CustomResource[]> {
  try {
    const groups = await kubeConfig.makeApiClient(ApisApi).getAPIVersions();
    const served = new Set(groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion)));
    return INFERENCE_SERVICE_VERSIONS.filter((r) => served.has(`${r.group}/${r.version}`));
  } catch (error) {
    warn?.(`discovery failed (${errorMessage(error)}); watching every supported InferenceService version`);
    return [...INFERENCE_SERVICE_VERSIONS];
  }
}
