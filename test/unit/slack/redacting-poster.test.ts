/** The last gate before Slack: secrets in any text of a message are masked; the bot's own ids and values pass. */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { redactingPoster, redactMessage } from '../../../src/slack/redacting-poster.js';
import type { SlackMessage } from '../../../src/slack/slack-message.js';
import type { SlackPoster } from '../../../src/slack/slack-poster.js';
import { secretGenerator } from '../../fixtures/secrets/secret-generator.mjs';

const g = secretGenerator(7);
const token = `glpat-${g.alnum(20)}`;
const password = g.password();

const message: SlackMessage = {
  text: `Diagnosis failed: pulling from https://deploy:${password}@registry.example.com`,
  blocks: [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `\`\`\`\n 12 │ git clone https://oauth2:${token}@gitlab.example.com/m.git\n\`\`\``,
      },
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `<https://logs.example.com/?token=${g.alnum(24)}|logs>` }] },
    {
      type: 'actions',
      block_id: 'rp-AbC123dEf456GhI7',
      elements: [
        {
          type: 'button',
          action_id: 'approve',
          value: 'rp-AbC123dEf456GhI7',
          text: { type: 'plain_text', text: 'Approve' },
        },
      ],
    },
  ],
};

describe('redactingPoster', () => {
  it('masks secrets in the notification text and every block text before posting, updating or answering ephemerally', async () => {
    const sent: SlackMessage[] = [];
    const inner: SlackPoster = {
      post: async (_c, m) => {
        sent.push(m);
        return '1.0';
      },
      update: async (_c, _t, m) => void sent.push(m),
      ephemeral: async (_c, _u, m) => void sent.push(m),
    };
    const poster = redactingPoster(inner);
    await poster.post('C1', message);
    await poster.update('C1', '1.0', message);
    await poster.ephemeral('C1', 'U1', message);
    expect(sent).toHaveLength(3);
    for (const m of sent) {
      const all = JSON.stringify(m);
      expect(all).not.toContain(password);
      expect(all).not.toContain(token.slice(6));
      expect(m.text).toContain('https://deploy:[REDACTED]@registry.example.com');
      expect(all).toContain('"action_id":"approve"');
      expect(all).toContain('"value":"rp-AbC123dEf456GhI7"');
      expect(all).toContain('"block_id":"rp-AbC123dEf456GhI7"');
    }
  });

  it('leaves every golden message as it is (nothing in them is a secret)', () => {
    const dir = 'test/golden/slack';
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const parsed = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as SlackMessage | SlackMessage[];
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) expect(redactMessage(m)).toEqual(m);
    }
  });
});
