/**
 * The Slack app manifests (deploy/slack-app-manifest*.yaml) ask for exactly the bot scopes the code
 * needs: the Web API methods it calls (found in src/ and handlers/, each looked up in a
 * method → scope table), plus `commands` for the slash command and `app_mentions:read` for the
 * app_mention event the handlers register. The command, events and interactivity match what the
 * handlers register; the HTTP manifest points every URL at /slack/events, the Socket Mode one has no URL.
 * Both type-check against @slack/web-api's Manifest type (what apps.manifest.create accepts), with
 * unknown keys rejected at every level.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ISVC_COMMAND } from '../../handlers/commands/index.js';
import { typeProblems } from '../../scripts/manifest-schemas.mjs';

/** Bot-token scopes of the Web API methods the bot may call ([] : no scope needed). */
const METHOD_SCOPES: Record<string, string[]> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.getPermalink': [],
  'usergroups.users.list': ['usergroups:read'],
  'usergroups.list': ['usergroups:read'],
  'users.info': ['users:read'],
  'conversations.info': ['channels:read', 'groups:read'],
  'conversations.members': ['channels:read', 'groups:read'],
  'conversations.history': ['channels:history', 'groups:history'],
  'conversations.replies': ['channels:history', 'groups:history'],
  'reactions.add': ['reactions:write'],
  'views.open': [],
  'views.update': [],
};
/** Called by Bolt itself: auth.test at start (SLACK_BOT_TOKEN check); apps.connections.open uses the app-level token. */
const IMPLICIT_METHODS = ['auth.test'];
/** Scopes that come with features rather than Web API methods. */
const EVENT_SCOPES: Record<string, string> = { app_mention: 'app_mentions:read', message: 'channels:history' };

const FAMILIES =
  'chat|usergroups|users|conversations|reactions|views|files|auth|team|pins|bookmarks|dnd|emoji|reminders|search|stars|bots';
const CALL = new RegExp(`\\.((?:${FAMILIES})\\.[A-Za-z]+(?:\\.[A-Za-z]+)?)\\(`, 'g');
const API_CALL = /\.apiCall\(\s*['"]([\w.]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const code = ['src', 'handlers'].flatMap(sources).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const calledMethods = new Map<string, string>();
for (const { file, text } of code)
  for (const re of [CALL, API_CALL])
    for (const m of text.matchAll(re)) if (!calledMethods.has(m[1]!)) calledMethods.set(m[1]!, file);
const registered = (kind: 'command' | 'event' | 'action') =>
  code.flatMap(({ text }) =>
    [...text.matchAll(new RegExp(`\\bapp\\.${kind}\\(\\s*([^,)]+)`, 'g'))].map((m) => m[1]!.trim()),
  );

interface Manifest {
  features: {
    slash_commands: Array<{ command: string; url?: string; description: string }>;
    bot_user: { display_name: string };
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url?: string };
    socket_mode_enabled: boolean;
  };
}
const manifests = {
  http: parseYaml(readFileSync('deploy/slack-app-manifest.yaml', 'utf8')) as Manifest,
  socket: parseYaml(readFileSync('deploy/slack-app-manifest-socket-mode.yaml', 'utf8')) as Manifest,
};

it('finds the Web API methods the code calls, each in the scope table', () => {
  expect([...calledMethods.keys()].sort()).toEqual(
    expect.arrayContaining(['chat.postEphemeral', 'chat.postMessage', 'chat.update', 'usergroups.users.list']),
  );
  const unknown = [...calledMethods]
    .filter(([m]) => !(m in METHOD_SCOPES))
    .map(([m, file]) => `${m} (${file}): add it to METHOD_SCOPES with its scope`);
  expect(unknown).toEqual([]);
});

it('the handlers register one command, the app_mention event and the remediation buttons', () => {
  expect(registered('command')).toEqual(['ISVC_COMMAND']);
  expect(registered('event')).toEqual(["'app_mention'"]);
  expect(registered('action').length).toBeGreaterThan(0);
});

describe.each(Object.entries(manifests))('%s manifest', (mode, manifest) => {
  it('asks for exactly the bot scopes the code needs, and no user scopes', () => {
    const events = registered('event').map((e) => e.replace(/['"]/g, ''));
    const needed = new Set<string>(
      [...calledMethods.keys(), ...IMPLICIT_METHODS].flatMap((m) => METHOD_SCOPES[m] ?? []),
    );
    needed.add('commands');
    for (const e of events) needed.add(EVENT_SCOPES[e]!);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
    expect(manifest.oauth_config.scopes.user ?? []).toEqual([]);
  });

  it('declares /isvc, the app_mention event and interactivity', () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([ISVC_COMMAND]);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(['app_mention']);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
  });

  if (mode === 'http') {
    it('sends commands, events and clicks to /slack/events over HTTPS', () => {
      const urls = [
        manifest.features.slash_commands[0]!.url,
        manifest.settings.event_subscriptions.request_url,
        manifest.settings.interactivity.request_url,
      ];
      for (const url of urls) expect(url).toMatch(/^https:\/\/[^/]+\/slack\/events$/);
      expect(manifest.settings.socket_mode_enabled).toBe(false);
    });
  } else {
    it('uses Socket Mode and has no URL', () => {
      expect(manifest.settings.socket_mode_enabled).toBe(true);
      expect(JSON.stringify(manifest)).not.toMatch(/url/i);
    });
  }
});

it('the two manifests differ only in URLs and Socket Mode', () => {
  const strip = (m: Manifest) =>
    JSON.parse(
      JSON.stringify(m, (k, v) => (/url$/i.test(k) || k === 'socket_mode_enabled' ? undefined : v)),
    ) as unknown;
  expect(strip(manifests.socket)).toEqual(strip(manifests.http));
});

describe("@slack/web-api's Manifest type", () => {
  // Known<> drops the type's top-level index signature, so a misspelled section is an error too
  const typed = (label: string, value: unknown) => ({
    label,
    module: '@slack/web-api',
    type: "Known<M.AppsManifestCreateArguments['manifest']>",
    value,
  });

  it('accepts both manifests, and rejects a misspelled key at any level and a wrong type', () => {
    const broken = structuredClone(manifests.http) as unknown as Record<string, any>;
    broken.settings.socket_mode_enable = true;
    broken.features.slash_commands[0].should_escape = 'no';
    broken.oauth_config.scope = broken.oauth_config.scopes;
    broken.setings = {};
    const problems = typeProblems([
      typed('http', manifests.http),
      typed('socket', manifests.socket),
      typed('broken', broken),
    ]);
    expect(problems.filter((p) => p.object !== 'broken')).toEqual([]);
    expect(
      problems
        .filter((p) => p.object === 'broken')
        .map((p) => `${p.path}: ${p.message}`)
        .sort(),
    ).toEqual([
      "features.slash_commands[0].should_escape: Type 'string' is not assignable to type 'boolean | undefined'.",
      "oauth_config.scope: unknown field 'scope'",
      "setings: unknown field 'setings'",
      "settings.socket_mode_enable: unknown field 'socket_mode_enable'",
    ]);
  }, 30_000);
});
