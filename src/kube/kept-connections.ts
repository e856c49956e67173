/**
 * Connections to the API server kept open between requests. client-node (2.x, undici) gives every
 * request whose cluster has TLS settings (a CA, a client certificate, insecure-skip-tls-verify,
 * a server name) an undici Agent of its own (`KubeConfig.applySecurityAuthentication`), so each
 * request opened a TCP connection, and a TLS handshake on a real cluster, then dropped it: every
 * wave of reads paid those round trips again. `keptDispatcher` swaps the Agent a request was given
 * for one Agent per client owner and TLS identity (the same CA, client certificate, key and server
 * name), whose pool reuses idle connections. A connection idle for 15 s is closed (load balancers
 * and API servers drop idle ones later than that), and a request in flight is never cut by it.
 * Proxy dispatchers (a kubeconfig's proxy-url, SOCKS or HTTP) are left as they are; a request
 * given no dispatcher (no TLS settings at all) goes through undici's global one, which keeps its
 * connections already.
 */
import { createHash } from 'node:crypto';
import type { DispatcherOptions } from '@kubernetes/client-node';
import { Agent, type Dispatcher } from 'undici';

const IDLE_CLOSE_MS = 15_000;

/** What tells one TLS identity from another. */
const IDENTITY_KEYS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
  'ciphers',
  'secureProtocol',
] as const;

const agents = new WeakMap<object, Map<string, Agent>>();

function identityOf(options: Record<string, unknown>): string {
  const parts = IDENTITY_KEYS.map((k) => {
    const v = options[k];
    return Buffer.isBuffer(v)
      ? v.toString('base64')
      : Array.isArray(v)
        ? v.map((x) => (Buffer.isBuffer(x) ? x.toString('base64') : String(x)))
        : v;
  });
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * The dispatcher to use instead of `fresh` for requests of `owner` (a KubeConfig), given the
 * options client-node built `fresh` from: the owner's kept Agent for a plain Agent, `fresh` itself
 * for a proxy.
 */
export function keptDispatcher(owner: object, options: DispatcherOptions | undefined, fresh: Dispatcher): Dispatcher {
  if (options?.type !== 'agent' || !(fresh instanceof Agent) || fresh.constructor !== Agent) return fresh;
  const connect = options.connect as Record<string, unknown>;
  const key = identityOf(connect);
  let byKey = agents.get(owner);
  if (!byKey) {
    byKey = new Map();
    agents.set(owner, byKey);
  }
  let agent = byKey.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { ...options.connect },
      keepAliveTimeout: IDLE_CLOSE_MS,
      keepAliveMaxTimeout: IDLE_CLOSE_MS,
    });
    byKey.set(key, agent);
  }
  void fresh.close(); // it has opened nothing yet
  return agent;
}
