/**
 * Connections to the API server kept open between requests. client-node gives every request an
 * HTTP agent of its own (`KubeConfig.applySecurityAuthentication`), so each request opened a TCP
 * connection, and a TLS handshake on a real cluster, then closed it: every wave of reads paid
 * those round trips again. `keptAgent` swaps the agent a request was given for one keep-alive
 * agent per client owner and TLS identity (the same CA, client certificate, key and server name),
 * which reuses idle connections. A connection idle for 15 s is closed (load balancers and API
 * servers drop idle ones later than that), and a request in flight is never cut by it. Proxy
 * agents (a kubeconfig's proxy-url) are left as they are.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

const IDLE_CLOSE_MS = 15_000;

/** What tells one TLS identity from another. */
const IDENTITY_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername', 'ciphers', 'secureProtocol'] as const;

const agents = new WeakMap<object, Map<string, http.Agent>>();

function identityOf(options: Record<string, unknown>): string {
  const parts = IDENTITY_KEYS.map((k) => {
    const v = options[k];
    return Buffer.isBuffer(v) ? v.toString('base64') : Array.isArray(v) ? v.map((x) => (Buffer.isBuffer(x) ? x.toString('base64') : String(x))) : v;
  });
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The keep-alive agent to use instead of `fresh` for requests of `owner` (a KubeConfig); `fresh` itself when it is not a plain HTTP(S) agent. */
export function keptAgent<T>(owner: object, fresh: T): T | http.Agent {
  const kind = fresh instanceof https.Agent && fresh.constructor === https.Agent ? 'https' : fresh instanceof http.Agent && fresh.constructor === http.Agent ? 'http' : null;
  if (kind === null) return fresh;
  const options = ((fresh as unknown as { options?: Record<string, unknown> }).options ?? {}) as https.AgentOptions & Record<string, unknown>;
  const key = `${kind}:${identityOf(options)}`;
  let byKey = agents.get(owner);
  if (!byKey) agents.set(owner, (byKey = new Map()));
  let agent = byKey.get(key);
  if (!agent) {
    const kept = { ...options, keepAlive: true, timeout: IDLE_CLOSE_MS, scheduling: 'lifo' as const };
    agent = kind === 'https' ? new https.Agent(kept) : new http.Agent(kept);
    byKey.set(key, agent);
  }
  return agent;
}
