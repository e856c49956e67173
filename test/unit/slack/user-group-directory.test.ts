/** Approver groups resolved through usergroups.users.list on the Slack stand-in: members cached briefly, an unreadable group left out (fail closed). */
import { createSlackWebClient } from '../../../src/slack/web-api-poster.js';
import { createUserGroupDirectory } from '../../../src/slack/user-group-directory.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';

let slack: FakeSlackApi;
beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(() => slack.close());

const client = () => createSlackWebClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl, retries: 0 });
const lookups = (group: string) =>
  slack.calls.filter((c) => c.method === 'usergroups.users.list' && c.body.usergroup === group).length;

describe('user-group directory', () => {
  it('answers a group with its members and asks Slack again only after the cache time', async () => {
    slack.setUserGroup('S0DIRPLATFORM', ['U0BOB', 'U0CAROL']);
    let now = 1_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const warnings: string[] = [];
      const directory = createUserGroupDirectory(client(), { ttlMs: 5000, warn: (m) => warnings.push(m) });
      expect((await directory.members(['S0DIRPLATFORM'])).get('S0DIRPLATFORM')).toEqual(['U0BOB', 'U0CAROL']);
      now += 4000;
      await directory.members(['S0DIRPLATFORM']);
      expect(lookups('S0DIRPLATFORM')).toBe(1);
      now += 2000;
      await directory.members(['S0DIRPLATFORM']);
      expect(lookups('S0DIRPLATFORM')).toBe(2);
      expect(warnings).toEqual([]);
    } finally {
      Date.now = realNow;
    }
  });

  it('leaves out a group Slack cannot resolve (no_such_subteam), says why, and asks again next time', async () => {
    const warnings: string[] = [];
    const directory = createUserGroupDirectory(client(), { warn: (m) => warnings.push(m) });
    slack.setUserGroup('S0DIRKNOWN', ['U0BOB']);
    const members = await directory.members(['S0DIRGONE', 'S0DIRKNOWN']);
    expect(members.has('S0DIRGONE')).toBe(false);
    expect(members.get('S0DIRKNOWN')).toEqual(['U0BOB']);
    expect(warnings.join('\n')).toContain('S0DIRGONE: no_such_subteam');
    await directory.members(['S0DIRGONE']);
    expect(lookups('S0DIRGONE')).toBe(2);
  });
});
