/**
 * startSimulator: serves a snapshot as a Kubernetes API server over plain HTTP on 127.0.0.1,
 * well enough for @kubernetes/client-node and kubectl (see contract/bot.md "The cluster simulator").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { SnapshotError, type Snapshot } from '../snapshot/load-snapshot.js';
import { resolveClusterProfile } from './api-catalog/cluster-profile.js';
import { ApiError } from './api-error.js';
import { completePodStatus } from './complete-pod-status.js';
import type { KubeObject } from './kube-object.js';
import { createRouter } from './http-router.js';
import { addImplicitNamespaces } from './implicit-namespaces.js';
import { writeKubeconfigFile } from './kubeconfig-file.js';
import { ObjectStore } from './object-store.js';
import type { RecordedRequest } from './request-log.js';
import { ResourceRegistry } from './resource-registry.js';
import { WatchRegistry } from './watch-stream.js';

export type { RecordedRequest } from './request-log.js';
export { ObjectStore } from './object-store.js';

export interface SimulatorOptions {
  snapshot: Snapshot;
  /** 0 or absent: any free port. */
  port?: number;
  /** Every response is delayed by this much (a watch: its start). */
  latencyMs?: number;
  /** Called with each request once it is answered, as it is added to `requests`. */
  onRequest?: (request: RecordedRequest) => void;
}

export interface RunningSimulator {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Every API request served, in order. */
  requests: RecordedRequest[];
  store: ObjectStore;
  writeKubeconfig(file: string): Promise<void>;
  /** Ends the open watch streams (as an API server restart would); clients reconnect from their last resourceVersion. */
  endWatches(): void;
  /** Stops listening and ends open watch streams. */
  close(): Promise<void>;
}

/**
 * A store holding the snapshot's objects in the API groups its cluster has (cluster.yaml, else
 * inferred from the objects), with what a live server and the kubelet fill in (uids, namespaces,
 * pod conditions…). A snapshot that contradicts itself is a SnapshotError.
 */
export function storeFromSnapshot(snapshot: Snapshot): ObjectStore {
  const profile = resolveClusterProfile(snapshot.objects, snapshot.cluster, path.join(snapshot.dir, 'cluster.yaml'));
  const store = new ObjectStore(new ResourceRegistry(profile));
  for (const object of snapshot.objects) {
    try {
      store.add(completePodStatus(object as KubeObject));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const meta = (object.metadata ?? {}) as { name?: string; namespace?: string };
      throw new SnapshotError(
        `${String(object.kind)} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}: ${error.message}`,
        path.join(snapshot.dir, 'objects.yaml'),
      );
    }
  }
  addImplicitNamespaces(store);
  return store;
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const store = storeFromSnapshot(options.snapshot);
  const watches = new WatchRegistry();
  const requests: RecordedRequest[] = [];
  let url = '';
  const server = createServer(
    createRouter({
      snapshot: options.snapshot,
      store,
      watches,
      requests,
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
      latencyMs: options.latencyMs ?? 0,
      serverAddress: () => url.replace(/^http:\/\//, ''),
    }),
  );
  const sockets = trackSockets(server);
  await listen(server, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    requests,
    store,
    writeKubeconfig: (file) => writeKubeconfigFile(file, url),
    endWatches: () => watches.endAll(),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        watches.endAll();
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 200).unref();
      })),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return sockets;
}
