import {
  ApisApi,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  ServerConfiguration,
  createConfiguration,
  type Middleware,
} from '@kubernetes/client-node';

/** The typed API clients a diagnosis uses, sharing one request counter. */
export interface KubeClients {
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  /** Discovery: the API groups and versions the cluster serves. */
  apis: ApisApi;
  kubeConfig: KubeConfig;
  /** HTTP requests sent through these clients so far. */
  requestCount(): number;
}

/**
 * Builds API clients for a kubeconfig, with a middleware that counts every HTTP request
 * (the diagnosis reports `stats.apiRequests`, the benchmark budgets it).
 */
export function makeKubeClients(kubeConfig: KubeConfig): KubeClients {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  let count = 0;
  const counter: Middleware = {
    pre: async (ctx) => {
      count += 1;
      return ctx;
    },
    post: async (ctx) => ctx,
  };
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kubeConfig },
    promiseMiddleware: [counter],
  });
  return {
    core: new CoreV1Api(configuration),
    apps: new AppsV1Api(configuration),
    custom: new CustomObjectsApi(configuration),
    apis: new ApisApi(configuration),
    kubeConfig,
    requestCount: () => count,
  };
}

/** A kubeconfig from a file (or the usual KUBECONFIG / ~/.kube/config / in-cluster rules when no file is given). */
export function loadKubeConfig(options: { file?: string; context?: string } = {}): KubeConfig {
  const kc = new KubeConfig();
  if (options.file) kc.loadFromFile(options.file);
  else kc.loadFromDefault();
  if (options.context) kc.setCurrentContext(options.context);
  return kc;
}

/** A kubeconfig that talks plain HTTP to a server such as the cluster simulator. */
export function kubeConfigForServer(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'isvc-doctor', server, skipTLSVerify: true }],
    users: [{ name: 'isvc-doctor' }],
    contexts: [{ name: 'isvc-doctor', cluster: 'isvc-doctor', user: 'isvc-doctor', namespace: 'default' }],
    currentContext: 'isvc-doctor',
  });
  return kc;
}
