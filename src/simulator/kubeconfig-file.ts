/** A kubeconfig file pointing kubectl or client-node at a simulator over plain HTTP (client-node wants insecure-skip-tls-verify to allow http). */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export function kubeconfigFor(server: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'isvc-doctor-simulator', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'isvc-doctor', user: {} }],
    contexts: [
      { name: 'isvc-doctor-simulator', context: { cluster: 'isvc-doctor-simulator', user: 'isvc-doctor', namespace } },
    ],
    'current-context': 'isvc-doctor-simulator',
    preferences: {},
  });
}

export async function writeKubeconfigFile(file: string, server: string): Promise<void> {
  await writeFile(file, kubeconfigFor(server), { mode: 0o600 });
}
