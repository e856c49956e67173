/** Parsing `/isvc mute` and `/isvc unmute`. */
import { parseMuteCommand } from '../../../handlers/commands/mute-command.js';

const config = { namespaces: ['default', 'team-a'] };

it.each([
  ['mute iris', { kind: 'mute', target: { namespace: 'default', name: 'iris' }, durationMs: null }],
  ['mute iris 2h', { kind: 'mute', target: { namespace: 'default', name: 'iris' }, durationMs: 7_200_000 }],
  ['mute iris 30m -n team-a', { kind: 'mute', target: { namespace: 'team-a', name: 'iris' }, durationMs: 1_800_000 }],
  ['mute team-a/iris 1d', { kind: 'mute', target: { namespace: 'team-a', name: 'iris' }, durationMs: 86_400_000 }],
  ['unmute iris --namespace team-a', { kind: 'unmute', target: { namespace: 'team-a', name: 'iris' } }],
])('%s', (text, expected) => expect(parseMuteCommand(text, config)).toEqual(expected));

it.each([
  ['mute', 'mute needs the name of an InferenceService.'],
  ['mute iris soon', '"soon" is not a duration like 30m, 2h or 1d (at most 30d).'],
  ['mute iris 31d', 'at most 30d'],
  ['unmute iris 2h', 'unmute takes one InferenceService name.'],
  ['mute Bad_Name', 'is not a valid InferenceService name'],
  ['mute iris -n kube-system', 'Namespace "kube-system" is not one this bot may read'],
  ['mute iris --force', 'Unknown option "--force".'],
])('rejects "%s"', (text, problem) => {
  const parsed = parseMuteCommand(text, config);
  expect(parsed?.kind).toBe('invalid');
  expect((parsed as { problem: string }).problem).toContain(problem);
});

it('leaves other subcommands alone', () => {
  expect(parseMuteCommand('diagnose iris', config)).toBeNull();
});
