/**
 * Turns InferenceServices Ready or not through the simulator's API (merge patch on the status
 * subresource), as their controller would. The bench's own requests carry fieldManager=BENCH_FIELD_MANAGER,
 * so that counts of what the bot asked for can leave them out.
 */
import http from 'node:http';
import type { LoggedRequest } from './request-log-reader.js';
import { isvcStatus } from './isvc-dataset.js';

export const BENCH_FIELD_MANAGER = 'isvc-doctor-bench';

export const notFromBench = (r: LoggedRequest): boolean => r.query.fieldManager !== BENCH_FIELD_MANAGER;

function patchStatus(agent: http.Agent, base: string, name: string, ready: boolean): Promise<void> {
  const url = `${base}/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/${name}/status?fieldManager=${BENCH_FIELD_MANAGER}`;
  const body = JSON.stringify({ status: isvcStatus(name, ready) });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'PATCH',
        agent,
        headers: { 'content-type': 'application/merge-patch+json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`PATCH ${name} status: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function setReady(simulatorUrl: string, names: string[], ready: boolean, concurrency = 16): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift())
      await patchStatus(agent, simulatorUrl, name, ready);
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
}
