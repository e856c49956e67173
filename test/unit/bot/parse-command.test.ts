import { parseIsvcCommand, stripMentions } from '../../../src/bot/parse-command.js';

const all = { namespaces: null };
const some = { namespaces: ['default', 'team-a'] };

describe('parseIsvcCommand', () => {
  it.each([
    ['diagnose sklearn-iris', all, { kind: 'diagnose', target: { namespace: 'default', name: 'sklearn-iris' } }],
    ['diagnose sklearn-iris -n team-a', some, { kind: 'diagnose', target: { namespace: 'team-a', name: 'sklearn-iris' } }],
    ['diagnose -n team-a sklearn-iris', some, { kind: 'diagnose', target: { namespace: 'team-a', name: 'sklearn-iris' } }],
    ['diagnose sklearn-iris --namespace=team-a', some, { kind: 'diagnose', target: { namespace: 'team-a', name: 'sklearn-iris' } }],
    ['diagnose sklearn-iris —namespace team-a', some, { kind: 'diagnose', target: { namespace: 'team-a', name: 'sklearn-iris' } }],
    ['  DIAGNOSE   team-a/sklearn-iris ', some, { kind: 'diagnose', target: { namespace: 'team-a', name: 'sklearn-iris' } }],
    ['status', all, { kind: 'status', namespace: 'default' }],
    ['status -n team-a', some, { kind: 'status', namespace: 'team-a' }],
    ['status', { namespaces: ['models'] }, { kind: 'status', namespace: 'models' }],
    ['', all, { kind: 'help' }],
    ['help', all, { kind: 'help' }],
  ])('%j', (text, config, expected) => {
    expect(parseIsvcCommand(text, config)).toEqual(expected);
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
  ])('refuses %j', (text, problem) => {
    const parsed = parseIsvcCommand(text, some);
    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.problem).toContain(problem);
  });

  it('strips leading mentions of an app mention', () => {
    expect(stripMentions('<@U0BOT> diagnose x')).toBe('diagnose x');
    expect(stripMentions(' <@U0BOT|isvc-doctor>  <@U0BOT> status')).toBe('status');
    expect(stripMentions('diagnose <@U1>')).toBe('diagnose <@U1>');
  });
});
