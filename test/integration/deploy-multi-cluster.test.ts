/**
 * deploy/examples/multi-cluster-web and -agent: the web process renders with no RBAC, no
 * mounted token and no kubeconfig, running `serve --role web`; the agent keeps today's RBAC and runs
 * `serve --role agent --cluster NAME` for a cluster its config names; both configs validate with
 * src/config.ts in their pods' environment and name the same clusters and queue.
 */
import { describe, expect, it } from '@jest/globals';
import { parse as parseYaml } from 'yaml';
import { expandEnv } from '../../scripts/redis-as-deployed.mjs';
import { buildConfig } from '../../src/config.js';
import { configFileOf, findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';

type Env = Array<{ name: string; value?: string; valueFrom?: any }>;
type Workload = ManifestObject & {
  spec: {
    template: {
      spec: {
        serviceAccountName?: string;
        automountServiceAccountToken?: boolean;
        containers: Array<{ args: string[]; env: Env }>;
      };
    };
  };
};
const secrets = {
  'isvc-doctor-slack/bot-token': 'xoxb-fake',
  'isvc-doctor-slack/signing-secret': 'fake',
  'isvc-doctor-redis/password': 'pw',
  'isvc-doctor-redis/username': 'isvc-doctor',
};

const web = renderKustomization('deploy/examples/multi-cluster-web').objects;
const agent = renderKustomization('deploy/examples/multi-cluster-agent').objects;
const configOf = (objs: ManifestObject[], w: Workload) =>
  buildConfig(parseYaml(configFileOf(objs)), {
    ...expandEnv(w.spec.template.spec.containers[0]!.env, secrets),
    POD_NAMESPACE: 'isvc-doctor',
  });

describe('the multi-cluster web process', () => {
  const deployment = findObject(web, 'Deployment', 'isvc-doctor-web', 'isvc-doctor') as Workload;
  it('has no RBAC, no mounted token and no kubeconfig', () => {
    expect(web.filter((o) => /Role|RoleBinding/.test(o.kind))).toEqual([]);
    expect(deployment.spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(
      (findObject(web, 'ServiceAccount', 'isvc-doctor-web', 'isvc-doctor') as any).automountServiceAccountToken,
    ).toBe(false);
    const c = deployment.spec.template.spec.containers[0]!;
    expect(c.args).toEqual(['serve', '--config', '/etc/isvc-doctor/config.yaml', '--role', 'web']);
    expect(c.env.map((e) => e.name)).not.toContain('KUBECONFIG');
  });

  it('has a config with clusters that src/config.ts accepts', () => {
    const config = configOf(web, deployment);
    expect(Object.keys(config.clusters ?? {})).toEqual(['prod-eu', 'staging']);
    expect(config.redisUrl).toBe('rediss://isvc-doctor:pw@redis.example.com:6380');
  });
});

describe('the multi-cluster web process with MCP (deploy/examples/multi-cluster-web-mcp)', () => {
  const withMcp = renderKustomization('deploy/examples/multi-cluster-web-mcp').objects;
  const deployment = findObject(withMcp, 'Deployment', 'isvc-doctor-web', 'isvc-doctor') as Workload;

  it('serves MCP on its own port, to the MCP clients only, still with no cluster credentials', () => {
    expect(withMcp.filter((o) => /Role|RoleBinding/.test(o.kind))).toEqual([]);
    expect(deployment.spec.template.spec.automountServiceAccountToken).toBe(false);
    const config = buildConfig(parseYaml(configFileOf(withMcp)), {
      ...expandEnv(deployment.spec.template.spec.containers[0]!.env, {
        ...secrets,
        'isvc-doctor-mcp/tokens': 'kagent=0123456789abcdef0123456789abcdef',
      }),
      POD_NAMESPACE: 'isvc-doctor',
    });
    expect(config.mcp.port).toBe(8090);
    expect(config.mcp.tokens.map((t) => t.name)).toEqual(['kagent']);
    const service = findObject(withMcp, 'Service', 'isvc-doctor-mcp', 'isvc-doctor') as any;
    expect(service.spec.selector).toEqual({
      'app.kubernetes.io/name': 'isvc-doctor',
      'app.kubernetes.io/component': 'web',
    });
    const policy = findObject(withMcp, 'NetworkPolicy', 'isvc-doctor-web-mcp', 'isvc-doctor') as any;
    expect(policy.spec.ingress).toEqual([
      {
        from: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'isvc-doctor.io/mcp-client': 'true' } } }],
        ports: [{ protocol: 'TCP', port: 8090 }],
      },
    ]);
  });
});

describe('a cluster agent', () => {
  const deployment = findObject(agent, 'Deployment', 'isvc-doctor', 'isvc-doctor') as Workload;
  it("keeps today's RBAC and runs --role agent for a configured cluster", () => {
    expect(findObject(agent, 'ClusterRole', 'isvc-doctor-diagnosis')).toBeDefined();
    expect(findObject(agent, 'Role', 'isvc-doctor-leader-election', 'isvc-doctor')).toBeDefined();
    const args = deployment.spec.template.spec.containers[0]!.args;
    expect(args.slice(-4)).toEqual(['--role', 'agent', '--cluster', 'prod-eu']);
    const config = configOf(agent, deployment);
    expect(config.clusters?.['prod-eu']).toBeDefined();
    expect(config.slack.signingSecret).toBeNull();
    const webConfig = configOf(web, findObject(web, 'Deployment', 'isvc-doctor-web', 'isvc-doctor') as Workload);
    expect(config.clusters).toEqual(webConfig.clusters);
    expect(config.queue.name).toBe(webConfig.queue.name);
    expect(config.redisUrl).toBe(webConfig.redisUrl);
  });
});
