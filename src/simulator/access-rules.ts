/**
 * The snapshot's access.yaml deny rules: which requests get 403 Forbidden, with the message a
 * real RBAC denial carries.
 */
import type { DenyRule } from '../snapshot/load-snapshot.js';
import { ApiError } from './api-error.js';

/** The identity the bot runs as in the cluster; RBAC messages name it. */
export const SIMULATED_USER = 'system:serviceaccount:isvc-doctor:isvc-doctor';

export interface AccessRequest {
  verb: string;
  group: string;
  /** Plural, or plural/subresource ("pods/log"). */
  resource: string;
  namespace?: string;
  name?: string;
}

export function isDenied(rules: readonly DenyRule[], request: AccessRequest): boolean {
  return rules.some((rule) => ruleMatches(rule, request));
}

function ruleMatches(rule: DenyRule, request: AccessRequest): boolean {
  if (rule.verb !== '*' && rule.verb !== request.verb) return false;
  if (rule.namespace !== undefined && rule.namespace !== request.namespace) return false;
  return resourceMatches(rule.resource, request);
}

/** "pods/log", "inferenceservices", "inferenceservices.serving.kserve.io", "inferenceservices.serving.kserve.io/status". */
function resourceMatches(ruleResource: string, request: AccessRequest): boolean {
  if (ruleResource === '*') return true;
  const [ruleMain = '', ruleSub] = ruleResource.split('/', 2);
  const [reqMain = '', reqSub] = request.resource.split('/', 2);
  if (ruleSub !== reqSub) return false;
  if (ruleMain === reqMain) return true;
  return request.group !== '' && ruleMain === `${reqMain}.${request.group}`;
}

export function forbidden(request: AccessRequest): ApiError {
  const [plural = '', sub] = request.resource.split('/', 2);
  const what = `${request.group ? `${plural}.${request.group}` : plural}${request.name ? ` "${request.name}"` : ''}`;
  const scope = request.namespace ? ` in the namespace "${request.namespace}"` : ' at the cluster scope';
  const message = `${what} is forbidden: User "${SIMULATED_USER}" cannot ${request.verb} resource "${plural}${sub ? `/${sub}` : ''}" in API group "${request.group}"${scope}`;
  return new ApiError(403, 'Forbidden', message, {
    ...(request.name ? { name: request.name } : {}),
    group: request.group,
    kind: plural,
  });
}
