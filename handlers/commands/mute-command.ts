/**
 * `/isvc mute NAME [DURATION] [-n NS]` and `/isvc unmute NAME [-n NS]`: silence (or no longer) the
 * automatic incident posts for one InferenceService. The mute lives in Redis (MuteStore) and expires
 * with DURATION (30m, 2h, 1d; at most 30d; none: until unmuted). The answer is ephemeral.
 * Errors: bad input → usage; Redis down → QUEUE_UNAVAILABLE; incidents off → INCIDENTS_DISABLED.
 */
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { namespaceAllowed, type AppConfig } from '../../src/config.js';
import { humanDuration, parseDuration } from '../../src/core/duration.js';
import { DNS1123_LABEL } from '../../src/core/names.js';
import type { TargetRef } from '../../src/core/target-ref.js';
import { withQueueDeadline } from '../../src/queue/queue-errors.js';
import { context, section, renderQueueUnavailable, type SlackMessage } from '../../src/render/slack/index.js';

export const MUTE_USAGE = '`/isvc mute NAME [DURATION] [-n NAMESPACE]` — no automatic incident posts for it (DURATION like 30m, 2h, 1d; none: until unmuted)\n`/isvc unmute NAME [-n NAMESPACE]`';
const MAX_MUTE_MS = 30 * 86_400_000;

export type MuteCommand = { kind: 'mute'; target: TargetRef; durationMs: number | null } | { kind: 'unmute'; target: TargetRef } | { kind: 'invalid'; problem: string };

/** null when the text is not a mute / unmute command. */
export function parseMuteCommand(text: string, config: Pick<AppConfig, 'namespaces'>): MuteCommand | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const sub = (words[0] ?? '').toLowerCase();
  if (sub !== 'mute' && sub !== 'unmute') return null;
  const positionals: string[] = [];
  let namespace: string | undefined;
  for (let i = 1; i < words.length; i += 1) {
    const w = words[i]!;
    if (/^(?:-n|--namespace|[–—]n|[–—]namespace)$/.test(w)) {
      namespace = words[++i];
      if (namespace === undefined) return { kind: 'invalid', problem: `${w} needs a namespace after it.` };
    } else if (/^(?:--namespace=|-n=?)(.+)$/.test(w)) namespace = w.replace(/^(?:--namespace=|-n=?)/, '');
    else if (/^[-–—]/.test(w)) return { kind: 'invalid', problem: `Unknown option "${w.slice(0, 40)}".` };
    else positionals.push(w);
  }
  let [name, duration, ...extra] = positionals;
  if (!name) return { kind: 'invalid', problem: `${sub} needs the name of an InferenceService.` };
  if (name.includes('/') && namespace === undefined) [namespace, name] = name.split('/', 2) as [string, string];
  if (extra.length > 0 || (sub === 'unmute' && duration !== undefined)) return { kind: 'invalid', problem: `${sub} takes one InferenceService name${sub === 'mute' ? ' and an optional duration like 2h' : ''}.` };
  const ns = namespace ?? (config.namespaces === null || config.namespaces.includes('default') ? 'default' : config.namespaces[0]!);
  for (const [what, value] of [['InferenceService name', name], ['namespace', ns]] as const) {
    if (value.length > 63 || !DNS1123_LABEL.test(value)) return { kind: 'invalid', problem: `"${value.slice(0, 80)}" is not a valid ${what}: use lower-case letters, digits and "-".` };
  }
  if (!namespaceAllowed(config, ns)) return { kind: 'invalid', problem: `Namespace "${ns}" is not one this bot may read (allowed: ${config.namespaces!.join(', ')}).` };
  const target = { namespace: ns, name };
  if (sub === 'unmute') return { kind: 'unmute', target };
  const ms = duration === undefined ? null : parseDuration(duration);
  if (duration !== undefined && (ms === null || ms <= 0 || ms > MAX_MUTE_MS)) return { kind: 'invalid', problem: `"${duration.slice(0, 40)}" is not a duration like 30m, 2h or 1d (at most 30d).` };
  return { kind: 'mute', target, durationMs: ms };
}

const note = (text: string): SlackMessage => ({ text, blocks: [section(text)] });

/** Runs a parsed mute / unmute and answers the user (ephemeral). */
export async function runMuteCommand(deps: BotDeps, command: MuteCommand, user: string, reply: (m: SlackMessage) => Promise<unknown>): Promise<void> {
  let outcome = 'ok';
  try {
    if (command.kind === 'invalid') {
      outcome = 'invalid';
      await reply({ text: `${command.problem}\n${MUTE_USAGE}`, blocks: [section(`⚠️ ${command.problem}`), section(MUTE_USAGE)] });
      return;
    }
    if (!deps.mutes) {
      outcome = 'disabled';
      await reply(note('Automatic incidents are not enabled on this bot (INCIDENTS_DISABLED): set alerts.channel in its config.'));
      return;
    }
    const mutes = deps.mutes;
    const key = `${command.target.namespace}/${command.target.name}`;
    if (command.kind === 'mute') {
      await withQueueDeadline('mute', 1500, () => mutes.mute(key, user, command.durationMs));
      const until = command.durationMs === null ? 'until `/isvc unmute`' : `for ${humanDuration(command.durationMs)}`;
      await reply({ text: `🔕 Muted ${key} ${until}: no automatic incident posts for it.`, blocks: [section(`🔕 Muted *${key}* ${until}: no automatic incident posts for it.`), context('_An incident already open for it still says when it recovers._')] });
    } else {
      const had = await withQueueDeadline('unmute', 1500, () => mutes.unmute(key));
      await reply(note(had ? `🔔 Unmuted ${key}: automatic incident posts are back on.` : `${key} was not muted.`));
    }
  } catch (error) {
    outcome = 'QUEUE_UNAVAILABLE';
    deps.logger.warn(`${command.kind} from ${user}: ${error instanceof Error ? error.message : String(error)}`);
    await reply(renderQueueUnavailable());
  } finally {
    deps.metrics.commandReceived(command.kind, outcome);
  }
}
