/**
 * Multi-cluster routing of a parsed command (the web process): which cluster (`--cluster`, the
 * channel's, `defaultCluster`), whether an agent of it is live (else the answer comes at once:
 * "cluster prod-eu has no agent connected since 14:02"), and the command's deps for that cluster.
 * On a single-cluster bot `--cluster` is a usage error and nothing else changes.
 */
import type { Command, CommandDeps, CommandReply } from './command.js';

export type Routed = { deps: CommandDeps; cluster: string | null } | { reply: CommandReply; outcome: string };

export async function routeCluster(
  command: Command<unknown>,
  flag: string | undefined,
  channel: string,
  deps: CommandDeps,
): Promise<Routed> {
  const routes = deps.clusters;
  const usage = [command.usage];
  if (!routes) {
    if (flag !== undefined)
      return {
        reply: {
          kind: 'usage-error',
          problem: '--cluster is for a bot serving several clusters; this one serves one.',
          usage,
        },
        outcome: 'invalid',
      };
    return { deps, cluster: null };
  }
  if (!command.cluster) return { deps, cluster: null };
  const name = flag ?? routes.defaultFor(channel);
  const known = routes.names.join(', ');
  if (name === null)
    return {
      reply: { kind: 'usage-error', problem: `Which cluster? Add --cluster NAME (clusters: ${known}).`, usage },
      outcome: 'invalid',
    };
  if (!routes.names.includes(name))
    return {
      reply: { kind: 'usage-error', problem: `Unknown cluster "${name.slice(0, 40)}" (clusters: ${known}).`, usage },
      outcome: 'invalid',
    };
  if (command.cluster !== 'store') {
    const health = await routes.health(name);
    if (!health.live)
      return { reply: { kind: 'no-agent', cluster: name, since: health.lastSeenAt }, outcome: 'no-agent' };
  }
  return { deps: { ...deps, ...routes.deps(name) }, cluster: name };
}
