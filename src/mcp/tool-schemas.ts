/**
 * The zod types of the tools' arguments and results. Names follow the CLI's rule (core/names.ts:
 * DNS-1123 labels), so a bad name is refused before any request, with the CLI's words.
 */
import { z } from 'zod';
import { DNS1123_LABEL } from '../core/names.js';

const NAME_RULE =
  'use lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters';

/** A DNS-1123 label; `what` names it in the error ("InferenceService name", "namespace"). */
export function kubeName(what: string) {
  const message = `USAGE: not a valid ${what}: ${NAME_RULE}`;
  return z.string().min(1, message).max(63, message).regex(DNS1123_LABEL, message);
}

export const nameArg = kubeName('InferenceService name').describe('the InferenceService');
export const namespaceArg = kubeName('namespace')
  .optional()
  .describe("its namespace (default: the kubeconfig context's namespace, else default)");
/** Over stdio (`isvc-doctor mcp`): another context of the person's kubeconfig. */
export const clusterArg = z
  .string()
  .min(1)
  .max(253)
  .optional()
  .describe('the cluster to read: a context of the kubeconfig (default: the current one)');

/** A cluster this server does not serve, in the Slack side's words. */
export function unknownCluster(name: string, names: readonly string[]): string {
  return `unknown cluster "${name.slice(0, 40)}" (clusters: ${names.join(', ')})`;
}

/**
 * Served by the multi-cluster web process: one of the configured clusters, by the names Slack users
 * use (an enum in the JSON schema); omitted, the default one.
 */
export function clusterChoice(names: readonly string[], defaultName: string | null) {
  const [first, ...rest] = names;
  if (first === undefined) throw new Error('clusterChoice: no clusters');
  return z
    .enum([first, ...rest], {
      errorMap: (_issue, ctx) => ({
        message: typeof ctx.data === 'string' ? `USAGE: ${unknownCluster(ctx.data, names)}` : ctx.defaultError,
      }),
    })
    .optional()
    .describe(
      `the cluster to read, by its configured name: ${names.join(', ')} (${defaultName === null ? 'required: no default cluster is configured' : `default: ${defaultName}`}); the result's cluster says which was read`,
    );
}

const finding = z
  .object({
    code: z.string(),
    severity: z.enum(['error', 'warning', 'info']),
    title: z.string(),
    subject: z.string(),
    evidence: z.array(z.object({}).passthrough()),
    next: z.string().nullable(),
  })
  .passthrough();

/** The report as `isvc-doctor diagnose -o json` prints it (docs/cli.md). */
export const reportShape = {
  target: z.object({ namespace: z.string(), name: z.string(), apiVersion: z.string().nullable() }).passthrough(),
  followedFrom: z
    .object({ namespace: z.string() })
    .optional()
    .describe(
      'no namespace was given and the default one has no such name: the only namespace holding it was diagnosed',
    ),
  ready: z.boolean(),
  rootCause: z.string().nullable(),
  findings: z.array(finding),
  stats: z.object({ durationMs: z.number(), apiRequests: z.number() }).passthrough(),
};

export const statusShape = {
  namespace: z.string().nullable().describe('the namespace listed (null: every namespace)'),
  items: z.array(
    z
      .object({
        namespace: z.string(),
        name: z.string(),
        apiVersion: z.string(),
        ready: z.boolean().nullable(),
        rootCause: z.string().nullable(),
      })
      .passthrough(),
  ),
};
