/** Parsing `/isvc …` (and mentions) through the one command registry: each command's input, or the problem to show. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { COMMANDS, parseCommand, USAGE } from '../../../src/commands/index.js';
import { stripMentions } from '../../../src/commands/split-args.js';

const all = { namespaces: null };
const some = { namespaces: ['default', 'team-a'] };

const parsed = (text: string, config: { namespaces: string[] | null } = some) => {
  const p = parseCommand(text, config);
  return 'problem' in p ? { problem: p.problem } : { command: p.command.name, input: p.input };
};

describe('parseCommand', () => {
  it.each([
    [
      'diagnose sklearn-iris',
      all,
      { command: 'diagnose', input: { namespace: 'default', name: 'sklearn-iris', namespaceDefaulted: true } },
    ],
    [
      'diagnose sklearn-iris -n team-a',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'sklearn-iris' } },
    ],
    [
      'diagnose -n team-a sklearn-iris',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'sklearn-iris' } },
    ],
    [
      'diagnose sklearn-iris --namespace=team-a',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'sklearn-iris' } },
    ],
    [
      'diagnose sklearn-iris —namespace team-a',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'sklearn-iris' } },
    ],
    [
      '  DIAGNOSE   team-a/sklearn-iris ',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'sklearn-iris' } },
    ],
    [
      '<@U0BOT> diagnose sklearn-iris',
      all,
      { command: 'diagnose', input: { namespace: 'default', name: 'sklearn-iris', namespaceDefaulted: true } },
    ],
    [
      'diagnose qwen --kind llmisvc -n team-a',
      some,
      { command: 'diagnose', input: { namespace: 'team-a', name: 'qwen', kind: 'llmisvc' } },
    ],
    [
      'diagnose qwen —kind=ISVC',
      all,
      { command: 'diagnose', input: { namespace: 'default', name: 'qwen', kind: 'isvc', namespaceDefaulted: true } },
    ],
    ['diagnose qwen --kind llm', all, { problem: '--kind takes llmisvc or isvc (got "llm").' }],
    // without -n: every namespace the bot may read (the worker reads the configured ones, or the whole cluster)
    ['status', all, { command: 'status', input: { namespace: null } }],
    ['status -A', all, { command: 'status', input: { namespace: null } }],
    ['status --all-namespaces', some, { command: 'status', input: { namespace: null } }],
    ['status -n team-a', some, { command: 'status', input: { namespace: 'team-a' } }],
    ['status', { namespaces: ['models'] }, { command: 'status', input: { namespace: null } }],
    [
      'rollout iris 90/10',
      all,
      {
        command: 'rollout',
        input: { target: { namespace: 'default', name: 'iris' }, op: { kind: 'split', canaryPercent: 10 } },
      },
    ],
    [
      'mute iris',
      some,
      { command: 'mute', input: { target: { namespace: 'default', name: 'iris' }, durationMs: null } },
    ],
    [
      'mute iris 2h',
      some,
      { command: 'mute', input: { target: { namespace: 'default', name: 'iris' }, durationMs: 7_200_000 } },
    ],
    [
      'mute iris 30m -n team-a',
      some,
      { command: 'mute', input: { target: { namespace: 'team-a', name: 'iris' }, durationMs: 1_800_000 } },
    ],
    [
      'mute team-a/iris 1d',
      some,
      { command: 'mute', input: { target: { namespace: 'team-a', name: 'iris' }, durationMs: 86_400_000 } },
    ],
    ['unmute iris --namespace team-a', some, { command: 'unmute', input: { namespace: 'team-a', name: 'iris' } }],
    ['', all, { command: 'help', input: {} }],
    ['help', all, { command: 'help', input: {} }],
    ['--help', all, { command: 'help', input: {} }],
  ])('%j', (text, config, expected) => {
    expect(parsed(text, config)).toEqual(expected);
  });

  it.each([
    ['explain x', 'Unknown subcommand "explain".'],
    ['diagnose', 'diagnose needs the name of an InferenceService.'],
    ['diagnose a b', 'diagnose takes one InferenceService name.'],
    ['diagnose Sklearn', '"Sklearn" is not a valid InferenceService name'],
    ['diagnose sklearn-iris-', 'is not a valid InferenceService name'],
    [`diagnose ${'a'.repeat(64)}`, 'is not a valid InferenceService name'],
    ['diagnose x -n kube-system', 'Namespace "kube-system" is not one this bot may read (allowed: default, team-a).'],
    ['diagnose x -n', '-n needs a namespace after it.'],
    ['diagnose x --force', 'Unknown option "--force".'],
    ['diagnose a/b/c', 'is not NAME or NAMESPACE/NAME'],
    ['diagnose team-a/x -n default', 'Two namespaces given'],
    ['diagnose x -n Bad_NS', 'is not a valid namespace'],
    ['status x', 'status takes no name'],
    ['status -A -n team-a', 'status takes -n NAMESPACE or -A, not both.'],
    ['rollout iris 50/60', 'A split must add up to 100'],
    ['mute', 'mute needs the name of an InferenceService.'],
    ['mute iris soon', '"soon" is not a duration like 30m, 2h or 1d (at most 30d).'],
    ['mute iris 31d', 'at most 30d'],
    ['unmute iris 2h', 'unmute takes one InferenceService name.'],
    ['mute Bad_Name', 'is not a valid InferenceService name'],
    ['mute iris -n kube-system', 'Namespace "kube-system" is not one this bot may read'],
    ['mute iris --force', 'Unknown option "--force".'],
  ])('refuses %j', (text, problem) => {
    expect(parsed(text).problem).toContain(problem);
  });

  it('strips leading mentions of an app mention', () => {
    expect(stripMentions('<@U0BOT> diagnose x')).toBe('diagnose x');
    expect(stripMentions(' <@U0BOT|isvc-doctor>  <@U0BOT> status')).toBe('status');
    expect(stripMentions('diagnose <@U1>')).toBe('diagnose <@U1>');
  });
});

describe('command registry', () => {
  it('registers every command file, each once, and help lists every command', () => {
    const files = readdirSync(path.resolve('src/commands'))
      .map((f) => f.replace(/\.ts$/, ''))
      .filter(
        (f) => !['index', 'command', 'split-args', 'resolve-target', 'route-cluster', 'command-progress'].includes(f),
      );
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(files.sort());
    for (const c of COMMANDS) expect(USAGE.some((line) => line.startsWith(`\`/isvc ${c.name}`))).toBe(true);
  });
});
