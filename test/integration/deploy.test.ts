/**
 * deploy/: every overlay renders with `kubectl kustomize`, and what it renders is what the code
 * expects: the Deployment runs `serve` with the config file the generated ConfigMap carries (and
 * that file validates with src/config.ts), tokens and the Redis password come from Secret references
 * only, the probes hit the routes the bot serves, the pod is locked down, Redis keeps an append-only
 * file on a volume with maxmemory under its limit, HTTP mode has a Service and an inbound rule to the
 * HTTP port while Socket Mode has neither, Prometheus may scrape in both, and the Lease / Knative
 * names in the RBAC match the config.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { expandEnv } from '../../scripts/redis-as-deployed.mjs';
import { buildConfig } from '../../src/config.js';
import { configFileOf, findObject, renderKustomization, type ManifestObject } from '../support/rbac/manifests.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const overlays = readdirSync('deploy/overlays', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Container = {
  name: string;
  image: string;
  args?: string[];
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: unknown };
  }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, any>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
};
type PodSpec = {
  serviceAccountName?: string;
  securityContext?: Record<string, any>;
  containers: Container[];
  volumes?: Array<{ name: string; configMap?: { name: string } }>;
  terminationGracePeriodSeconds?: number;
};
type Workload = ManifestObject & {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    volumeClaimTemplates?: unknown[];
  };
};

const rendered = new Map<string, ManifestObject[]>();
const objectsOf = (overlay: string) => {
  if (!rendered.has(overlay)) rendered.set(overlay, renderKustomization(`deploy/overlays/${overlay}`).objects);
  return rendered.get(overlay)!;
};
const bot = (objs: ManifestObject[]) => findObject(objs, 'Deployment', 'isvc-doctor', 'isvc-doctor') as Workload;
const container = (w: Workload) => w.spec.template.spec.containers[0]!;
const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

it('has the two overlays', () => {
  expect(overlays).toEqual(['http', 'socket-mode']);
});

describe.each(overlays)('overlay %s', (overlay) => {
  const socketMode = overlay === 'socket-mode';

  it('renders, with every namespaced object in a namespace and no Secret (references only)', () => {
    const objs = objectsOf(overlay);
    expect(objs.length).toBeGreaterThan(15);
    const clusterScoped = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);
    expect(
      objs
        .filter((o) => !clusterScoped.has(o.kind) && !o.metadata.namespace)
        .map((o) => `${o.kind}/${o.metadata.name}`),
    ).toEqual([]);
    expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(findObject(objs, 'Namespace', 'isvc-doctor')).toBeDefined();
    expect(findObject(objs, 'ServiceAccount', 'isvc-doctor', 'isvc-doctor')).toBeDefined();
    expect(
      objs
        .filter((o) => !['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'Namespace'].includes(o.kind))
        .every((o) => o.metadata.namespace === 'isvc-doctor'),
    ).toBe(true);
  });

  it('runs `serve --role all` from the image of this version, two replicas, with the config file mounted', () => {
    const w = bot(objectsOf(overlay));
    const c = container(w);
    expect(w.spec.replicas).toBe(2);
    expect(c.image).toBe(`isvc-doctor:${pkg.version}`);
    expect(c.args).toEqual(['serve', '--config', '/etc/isvc-doctor/config.yaml', '--role', 'all']);
    expect(w.spec.template.spec.serviceAccountName).toBe('isvc-doctor');
    const cm = objectsOf(overlay).find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('isvc-doctor-config-'),
    )!;
    const volume = w.spec.template.spec.volumes!.find((v) => v.configMap)!;
    expect(volume.configMap!.name).toBe(cm.metadata.name);
    expect(c.volumeMounts).toContainEqual(
      expect.objectContaining({ name: volume.name, mountPath: '/etc/isvc-doctor' }),
    );
    expect(matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels)).toBe(true);
  });

  it('takes tokens from the Secret only, by mode', () => {
    const c = container(bot(objectsOf(overlay)));
    const secretRef = (name: string) => env(c, name)?.valueFrom?.secretKeyRef;
    expect(secretRef('SLACK_BOT_TOKEN')).toEqual({ name: 'isvc-doctor-slack', key: 'bot-token' });
    if (socketMode) {
      expect(secretRef('SLACK_APP_TOKEN')).toEqual({ name: 'isvc-doctor-slack', key: 'app-token' });
      expect(env(c, 'SLACK_SIGNING_SECRET')).toBeUndefined();
    } else {
      expect(secretRef('SLACK_SIGNING_SECRET')).toEqual({ name: 'isvc-doctor-slack', key: 'signing-secret' });
      expect(env(c, 'SLACK_APP_TOKEN')).toBeUndefined();
    }
    expect(secretRef('REDIS_PASSWORD')).toEqual({ name: 'isvc-doctor-redis', key: 'password' });
    for (const e of c.env ?? []) if (/TOKEN|SECRET|PASSWORD/.test(e.name)) expect(e.value).toBeUndefined();
  });

  it("has a config file that src/config.ts accepts with the overlay's environment", () => {
    const objs = objectsOf(overlay);
    const c = container(bot(objs));
    const secrets: Record<string, string> = {
      'isvc-doctor-slack/bot-token': 'xoxb-fake',
      'isvc-doctor-slack/app-token': 'xapp-fake',
      'isvc-doctor-slack/signing-secret': 'fake',
      'isvc-doctor-redis/password': '0123abcd',
    };
    // the environment as the kubelet builds it: Secret values, then $(VAR) expanded in order
    const envVars = { ...expandEnv(c.env ?? [], secrets), POD_NAMESPACE: 'isvc-doctor' };
    const config = buildConfig(parseYaml(configFileOf(objs)), envVars);
    expect(config.slack.socketMode).toBe(socketMode);
    expect(config.port).toBe(3000);
    expect(config.metricsPort).toBe(9090);
    expect(config.logLevel).toBe('info');
    expect(config.approvers).toEqual([]);
    // the Lease the watcher takes is the one the leader-election Role names, in the pod's namespace
    const leaseRole = findObject(objs, 'Role', 'isvc-doctor-leader-election', 'isvc-doctor') as ManifestObject & {
      rules: Array<{ resourceNames?: string[] }>;
    };
    expect(leaseRole.rules.flatMap((r) => r.resourceNames ?? [])).toEqual([config.leaderElection.leaseName]);
    expect(config.leaderElection.namespace).toBeNull();
    expect(env(c, 'POD_NAMESPACE')?.valueFrom?.fieldRef).toEqual({ fieldPath: 'metadata.namespace' });
    // the Knative ConfigMap the diagnosis reads is in the namespace the optional Role is in
    expect(
      findObject(
        renderKustomization('deploy/optional/knative').objects,
        'Role',
        'isvc-doctor-diagnosis',
        config.diagnosis.knativeNamespace,
      ),
    ).toBeDefined();
    // REDIS_URL names the Redis Service of the overlay, and signs in as its ACL user with the Secret's password
    const redis = new URL(config.redisUrl);
    const svc = findObject(objs, 'Service', 'isvc-doctor-redis', 'isvc-doctor') as ManifestObject & {
      spec: { ports: Array<{ port: number }> };
    };
    expect(redis.hostname).toBe(`${svc.metadata.name}.${svc.metadata.namespace}.svc`);
    expect(String(svc.spec.ports[0]!.port)).toBe(redis.port);
    expect([redis.username, redis.password]).toEqual(['isvc-doctor', '0123abcd']);
    const redisArgs = container(
      findObject(objs, 'StatefulSet', 'isvc-doctor-redis', 'isvc-doctor') as Workload,
    ).args!.join(' ');
    expect(redisArgs).toContain('--user isvc-doctor on >$(REDISCLI_AUTH)');
  });

  it('probes /healthz and /readyz on the metrics port, and is locked down', () => {
    const w = bot(objectsOf(overlay));
    const c = container(w);
    const http = c.ports!.find((p) => p.name === 'http')!;
    expect(String(http.containerPort)).toBe(env(c, 'PORT')!.value);
    const metrics = c.ports!.find((p) => p.name === 'metrics')!;
    expect(String(metrics.containerPort)).toBe(env(c, 'METRICS_PORT')!.value);
    expect(w.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(env(c, 'METRICS_PORT')!.value);
    expect(c.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(c.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(c.startupProbe!.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(c.resources!.requests).toEqual(
      expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
    );
    expect(c.resources!.limits).toEqual(expect.objectContaining({ memory: expect.any(String) }));
    const pod = w.spec.template.spec.securityContext!;
    expect(pod).toEqual(
      expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } }),
    );
    expect(c.securityContext).toEqual(
      expect.objectContaining({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      }),
    );
    // SIGTERM handling needs time: the grace period outlasts the shutdown timeout
    expect(w.spec.template.spec.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(
      Number(env(c, 'SHUTDOWN_TIMEOUT_MS')!.value),
    );
  });

  it('keeps one replica through disruptions', () => {
    const objs = objectsOf(overlay);
    const pdb = findObject(objs, 'PodDisruptionBudget', 'isvc-doctor', 'isvc-doctor') as ManifestObject & {
      spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
    };
    const w = bot(objs);
    expect(pdb.spec.minAvailable).toBeLessThan(w.spec.replicas!);
    expect(matches(pdb.spec.selector.matchLabels, w.spec.template.metadata.labels)).toBe(true);
  });

  it('runs Redis 7.2 with an append-only file on a persistent volume, noeviction under a maxmemory that leaves room below its limit, the password from a Secret', () => {
    const objs = objectsOf(overlay);
    const redis = findObject(objs, 'StatefulSet', 'isvc-doctor-redis', 'isvc-doctor') as Workload & {
      spec: { serviceName: string };
    };
    const c = container(redis);
    const args = c.args!.join(' ');
    expect(c.image).toMatch(/^redis:7\.2\.\d+-bookworm$/);
    expect(args).toContain('--appendonly yes');
    expect(args).toContain('--maxmemory-policy noeviction');
    // noeviction only takes effect with a maxmemory; below ~60% of the limit, the AOF rewrite's fork has room
    const maxmemory = Number(/--maxmemory (\d+)mb/.exec(args)![1]) * 2 ** 20;
    const limit = Number(/^(\d+)Mi$/.exec(c.resources!.limits!.memory!)![1]) * 2 ** 20;
    expect(maxmemory).toBeGreaterThan(0);
    expect(maxmemory / limit).toBeLessThanOrEqual(0.65);
    expect(args).toContain('--user default off');
    expect(env(c, 'REDISCLI_AUTH')?.valueFrom?.secretKeyRef).toEqual({ name: 'isvc-doctor-redis', key: 'password' });
    expect(redis.spec.volumeClaimTemplates).toHaveLength(1);
    expect(c.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: '/data' }));
    expect(c.securityContext).toEqual(expect.objectContaining({ readOnlyRootFilesystem: true, runAsNonRoot: true }));
    // the governing Service is headless and selects the pod
    const headless = findObject(objs, 'Service', redis.spec.serviceName, 'isvc-doctor') as ManifestObject & {
      spec: { clusterIP?: string; selector: Record<string, string> };
    };
    expect(headless.spec.clusterIP).toBe('None');
    expect(matches(headless.spec.selector, redis.spec.template.metadata.labels)).toBe(true);
  });

  it(
    socketMode
      ? 'has no inbound Service, Ingress or ingress rule for the bot but Prometheus scraping'
      : 'has a Service for Slack and an ingress rule for the HTTP port only, and Prometheus scraping',
    () => {
      const objs = objectsOf(overlay);
      const labels = bot(objs).spec.template.metadata.labels;
      type Rule = {
        from?: Array<{
          namespaceSelector?: Record<string, unknown>;
          podSelector?: { matchLabels: Record<string, string> };
        }>;
        ports?: Array<{ port: number }>;
      };
      type Policy = ManifestObject & {
        spec: {
          podSelector: { matchLabels: Record<string, string> };
          policyTypes: string[];
          ingress?: Rule[];
          egress?: Array<{ ports?: Array<{ port: number; protocol: string }> }>;
        };
      };
      const policies = objs.filter(
        (o) => o.kind === 'NetworkPolicy' && matches((o as Policy).spec.podSelector.matchLabels, labels),
      ) as Policy[];
      const rules = policies.flatMap((p) => p.spec.ingress ?? []);
      const fromPrometheus = (r: Rule) =>
        (r.from ?? []).length > 0 &&
        r.from!.every((f) => f.podSelector?.matchLabels['app.kubernetes.io/name'] === 'prometheus');
      const portsOf = (rs: Rule[]) => rs.flatMap((r) => (r.ports ?? [{ port: -1 }]).map((x) => x.port));
      // Prometheus (any namespace) reaches the port /metrics is served on, in both modes
      expect(portsOf(rules.filter(fromPrometheus))).toEqual([Number(env(container(bot(objs)), 'METRICS_PORT')!.value)]);
      const ingressPorts = portsOf(rules.filter((r) => !fromPrometheus(r)));
      const services = objs.filter(
        (o) =>
          o.kind === 'Service' && matches((o.spec as { selector?: Record<string, string> }).selector ?? {}, labels),
      );
      expect(objs.filter((o) => o.kind === 'Ingress')).toEqual([]);
      expect(policies.some((p) => p.spec.policyTypes.includes('Ingress'))).toBe(true);
      if (socketMode) {
        expect(services).toEqual([]);
        expect(ingressPorts).toEqual([]);
      } else {
        expect(services).toHaveLength(1);
        expect((services[0]!.spec as { ports: Array<{ targetPort: string }> }).ports.map((p) => p.targetPort)).toEqual([
          'http',
        ]);
        expect(ingressPorts).toEqual([3000]);
      }
      const egress = policies.flatMap((p) =>
        (p.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((x) => `${x.protocol}/${x.port}`)),
      );
      expect(egress).toEqual(expect.arrayContaining(['UDP/53', 'TCP/53', 'TCP/6379', 'TCP/443', 'TCP/6443']));
    },
  );
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  it('runs the same program as the Deployment, as the numeric user the pod requires, under tini', () => {
    expect(dockerfile).toMatch(/^FROM node:24[-\w.]*slim AS runtime$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(
      /^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "\/app\/dist\/src\/cli\/isvc-doctor\.js"\]$/m,
    );
    expect(dockerfile).toMatch(/^EXPOSE 3000 9090$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*METRICS_PORT \|\| 9090\) \+ '\/healthz'/m);
  });
});
