/** The incident state machine and grouping decisions (pure), and the incident messages. */
import { humanDuration } from '../../../src/core/duration.js';
import {
  changeRootCause,
  joinsIncident,
  markNoted,
  newIncident,
  newMember,
  outageMs,
  pendingNotes,
  recover,
  resolve,
} from '../../../src/incidents/incident-model.js';
import {
  renderIncidentRoot,
  renderJoinedNote,
  renderRecoveredNote,
} from '../../../src/render/slack/render-incident.js';

const T0 = 1_700_000_000_000;
const member = (name: string, first = false, since = T0) =>
  newMember({ namespace: 'default', name }, 'GATEWAY_MISSING', since, T0 + 1000, first);

describe('grouping', () => {
  const incident = newIncident('inc-1', 'C1', 'GATEWAY_MISSING', T0);
  it.each([
    ['same channel, cause, inside the window', 'C1', 'GATEWAY_MISSING', T0 + 60_000, true],
    ['at the end of the window', 'C1', 'GATEWAY_MISSING', T0 + 120_000, true],
    ['after the window', 'C1', 'GATEWAY_MISSING', T0 + 120_001, false],
    ['another root cause', 'C1', 'OOM_KILLED', T0 + 1000, false],
    ['another channel', 'C2', 'GATEWAY_MISSING', T0 + 1000, false],
  ])('%s', (_what, channel, cause, now, joins) => {
    expect(joinsIncident(incident, channel, cause, now, 120_000)).toBe(joins);
  });
  it('never joins a resolved incident or none', () => {
    expect(joinsIncident({ ...incident, status: 'resolved' }, 'C1', 'GATEWAY_MISSING', T0, 120_000)).toBe(false);
    expect(joinsIncident(null, 'C1', 'GATEWAY_MISSING', T0, 120_000)).toBe(false);
  });
});

describe('state machine', () => {
  it('notes joins and recoveries once, and resolves when every member has recovered', () => {
    const incident = newIncident('inc-1', 'C1', 'GATEWAY_MISSING', T0);
    let members = [member('a', true), member('b'), member('c')];
    let notes = pendingNotes(incident, members);
    expect(notes.joined.map((m) => m.name)).toEqual(['b', 'c']);
    expect(notes.recovered).toEqual([]);
    expect(notes.resolves).toBe(false);
    members = markNoted(members);
    expect(pendingNotes(incident, members).joined).toEqual([]);
    members = [recover(members[0]!, T0 + 60_000, 'ready'), members[1]!, recover(members[2]!, T0 + 90_000, 'deleted')];
    notes = pendingNotes(incident, members);
    expect(notes.recovered.map((m) => m.name)).toEqual(['a', 'c']);
    expect(notes.resolves).toBe(false);
    members = markNoted(members);
    expect(pendingNotes(incident, members).recovered).toEqual([]);
    members = [members[0]!, recover(members[1]!, T0 + 720_000, 'ready'), members[2]!];
    notes = pendingNotes(incident, members);
    expect(notes.recovered.map((m) => m.name)).toEqual(['b']);
    expect(notes.resolves).toBe(true);
    const resolved = resolve(incident, members);
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: T0 + 720_000 });
    expect(pendingNotes(resolved, members).resolves).toBe(false);
    expect(humanDuration(outageMs(members, T0 + 999_999))).toBe('12m');
  });

  it('keeps the first recovery time when told twice', () => {
    const once = recover(member('a', true), T0 + 1000, 'ready');
    expect(recover(once, T0 + 5000, 'deleted')).toBe(once);
  });

  it('reports a root cause change only when the code differs', () => {
    const m = member('a', true);
    expect(changeRootCause(m, 'GATEWAY_MISSING').changed).toBe(false);
    const c = changeRootCause(m, 'OOM_KILLED');
    expect(c).toMatchObject({ changed: true, from: 'GATEWAY_MISSING', member: { rootCause: 'OOM_KILLED' } });
  });

  it.each([
    [45_000, '45s'],
    [12 * 60_000, '12m'],
    [3 * 3_600_000 + 5 * 60_000, '3h 5m'],
    [2 * 86_400_000 + 4 * 3_600_000, '2d 4h'],
  ])('humanDuration(%d) = %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});

describe('messages', () => {
  it('a single service: root names it and the code; recovered: "recovered after"', () => {
    const incident = newIncident('inc-1', 'C1', 'GATEWAY_MISSING', T0);
    const a = member('a', true);
    expect(renderIncidentRoot(incident, [a], T0 + 300_000).text).toBe(
      '🔴 default/a has not been ready for 5m: GATEWAY_MISSING',
    );
    const recovered = [recover(a, T0 + 720_000, 'ready')];
    expect(renderIncidentRoot(resolve(incident, recovered), recovered, T0 + 800_000).text).toBe(
      '✅ default/a recovered after 12m (was GATEWAY_MISSING)',
    );
    expect(renderRecoveredNote(recovered).text).toBe('✅ default/a is Ready again (recovered after 12m)');
  });

  it('a group lists its open members, cut with +N more', () => {
    const incident = newIncident('inc-1', 'C1', 'GATEWAY_MISSING', T0);
    const members = Array.from({ length: 20 }, (_, i) => member(`m-${i}`, i === 0));
    const root = renderIncidentRoot(incident, members, T0 + 60_000);
    expect(root.text).toMatch(/^🔴 20 InferenceServices not ready: GATEWAY_MISSING — default\/m-0, .* \(\+5 more\)$/);
    expect(JSON.stringify(root.blocks)).toContain('`GATEWAY_MISSING`');
    expect(renderJoinedNote(members.slice(1, 4), 'GATEWAY_MISSING').text).toBe(
      'Also not ready with the same root cause (GATEWAY_MISSING): default/m-1, default/m-2, default/m-3',
    );
  });
});
