/**
 * The page's own API (JSON under /ui/): the workspace state, sending a message or slash command as a
 * person, clicking a button or choosing a menu option, submitting a modal, the cluster panel's YAML
 * and "break it" actions, and Slack faults on demand (429 with Retry-After). Everything the page
 * does to the bot goes through the Slack stand-in as a signed Slack request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BotRequests, SentRequest } from '../../slack-standin/bot-requests.js';
import type { SlackStandin } from '../../slack-standin/slack-standin.js';
import { BOT_IDENTITY } from '../../slack-standin/web-api.js';
import type { ObjectStore } from '../../simulator/simulator.js';
import { breakActionsFor, runBreakAction } from '../cluster/break-actions.js';
import { isvcRows, isvcYaml } from '../cluster/cluster-view.js';
import type { PlaygroundController } from '../cluster/playground-controller.js';

export interface UiContext {
  standin: SlackStandin;
  bot: () => BotRequests | undefined;
  store: ObjectStore;
  controller: PlaygroundController;
  processes: () => Record<string, string>;
  logs: () => unknown[];
  clusterName: string;
}

type Json = Record<string, any>;

export async function handleUi(ctx: UiContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  if (!url.pathname.startsWith('/ui/')) return false;
  try {
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /ui/state') return json(res, 200, state(ctx));
    if (route === 'GET /ui/isvc') return isvc(ctx, res, url);
    if (req.method !== 'POST') return json(res, 404, { error: 'not found' });
    const body = await readJson(req);
    const bot = ctx.bot();
    if (route === 'POST /ui/break') {
      const error = runBreakAction(
        ctx.store,
        ctx.controller,
        String(body.namespace),
        String(body.name),
        String(body.action),
      );
      return json(res, error ? 409 : 200, error ? { error } : { ok: true });
    }
    if (route === 'POST /ui/fault') {
      ctx.standin.rateLimitNext(Math.min(Number(body.count) || 1, 20), Math.min(Number(body.retryAfter) || 2, 30));
      return json(res, 200, { ok: true });
    }
    if (!bot) return json(res, 503, { error: 'the bot is not running' });
    if (route === 'POST /ui/send') return sent(res, await send(ctx, bot, body));
    if (route === 'POST /ui/click') return sent(res, await click(ctx, bot, body));
    if (route === 'POST /ui/submit')
      return sent(
        res,
        await bot.submitView({ user: String(body.user), viewId: String(body.viewId), values: body.values ?? {} }),
      );
    if (route === 'POST /ui/dismiss') {
      ctx.standin.store.delete(String(body.channel), String(body.ts));
      return json(res, 200, { ok: true });
    }
    return json(res, 404, { error: 'not found' });
  } catch (error) {
    return json(res, 400, { error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
  }
}

function state(ctx: UiContext): Json {
  const store = ctx.standin.store;
  return {
    bot: { id: BOT_IDENTITY.userId, name: BOT_IDENTITY.name },
    team: BOT_IDENTITY.team,
    people: [...store.people.values()],
    channels: [...store.channels.values()],
    messages: store.all(),
    views: [...store.openViews.values()],
    cluster: { name: ctx.clusterName, rows: isvcRows(ctx.store) },
    processes: ctx.processes(),
    logs: ctx.logs(),
  };
}

function isvc(ctx: UiContext, res: ServerResponse, url: URL): true {
  const namespace = url.searchParams.get('namespace') ?? '';
  const name = url.searchParams.get('name') ?? '';
  const yaml = isvcYaml(ctx.store, namespace, name);
  if (yaml === null) return json(res, 404, { error: `no InferenceService ${namespace}/${name}` });
  return json(res, 200, { yaml, actions: breakActionsFor(ctx.store, ctx.controller, namespace, name) });
}

/** `/isvc …` is a slash command; anything else is a message, an app_mention when it names the bot. */
async function send(ctx: UiContext, bot: BotRequests, body: Json): Promise<SentRequest> {
  const user = String(body.user);
  const channel = String(body.channel);
  const text = String(body.text ?? '').trim();
  const threadTs = typeof body.threadTs === 'string' && body.threadTs ? body.threadTs : undefined;
  const command = /^(\/[a-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (command && !threadTs) return bot.slashCommand({ user, channel, command: command[1]!, text: command[2] ?? '' });
  return bot.mention({ user, channel, text: encodeMentions(ctx, text), ...(threadTs ? { threadTs } : {}) });
}

/** "@isvc-doctor" and "@alice" become Slack's `<@U…>` mentions, as Slack's composer does. */
function encodeMentions(ctx: UiContext, text: string): string {
  const names = new Map<string, string>([
    [BOT_IDENTITY.name, BOT_IDENTITY.userId],
    ...[...ctx.standin.store.people.values()].map((p) => [p.name, p.id] as [string, string]),
  ]);
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/(^|\s)@([a-z][\w.-]*)/g, (all, space: string, name: string) =>
    names.has(name) ? `${space}<@${names.get(name)}>` : all,
  );
}

async function click(ctx: UiContext, bot: BotRequests, body: Json): Promise<SentRequest> {
  const channel = String(body.channel);
  const messageTs = String(body.messageTs);
  const message = ctx.standin.store.get(channel, messageTs);
  if (!message) throw new Error('that message is gone');
  const block = (message.blocks ?? [])[Number(body.block)] as Json | undefined;
  const element = (body.element === 'accessory' ? block?.accessory : block?.elements?.[Number(body.element)]) as
    | Json
    | undefined;
  if (!element?.action_id && element?.type !== 'button') throw new Error('no such button or menu in that message');
  const options = (element.options ?? []) as Json[];
  const selected = body.value !== undefined ? options.find((o) => o.value === body.value) : undefined;
  return bot.click({
    user: String(body.user),
    channel,
    messageTs,
    ...(block?.block_id ? { blockId: block.block_id } : {}),
    element,
    ...(selected ? { selectedOption: { text: selected.text, value: selected.value } } : {}),
  });
}

function sent(res: ServerResponse, r: SentRequest): true {
  return json(res, 200, { status: r.status, ms: r.ms });
}

function json(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
  return true;
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Json) : {};
}
