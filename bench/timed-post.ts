/** One POST timed from handing its bytes to the socket to the end of the response. */
import http from 'node:http';

export function timedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  agent: http.Agent,
): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    const started = performance.now();
    req.end(body);
  });
}
