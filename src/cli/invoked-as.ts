/**
 * How the executable was called, from the name it was run under (npm links each bin of
 * package.json to the same file): `isvc-doctor`; `kubectl-isvc_doctor`, the kubectl plugin
 * (`kubectl isvc-doctor …`: the help then says so); `kubectl_complete-isvc_doctor`, which kubectl
 * runs to complete the plugin's words (`__complete`).
 */
import path from 'node:path';

export function invokedAs(script: string | undefined, args: string[]): { program: string; args: string[] } {
  const name = path.basename(script ?? '').replace(/\.(m?js|ts)$/, '');
  if (name === 'kubectl_complete-isvc_doctor') return { program: 'kubectl isvc-doctor', args: ['__complete', ...args] };
  if (name === 'kubectl-isvc_doctor') return { program: 'kubectl isvc-doctor', args };
  return { program: 'isvc-doctor', args };
}
