/** The page's Block Kit renderer: every documented block and element, rendered generically. */
import { renderBlocks } from '../../../src/playground/page/block-kit.js';

const dir = { userName: (id: string) => ({ U0ALICE: 'alice' })[id], channelName: () => undefined };
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text, emoji: true });

describe('renderBlocks', () => {
  it('section: mrkdwn text, fields in a grid, the accessory beside', () => {
    const html = renderBlocks(
      [
        {
          type: 'section',
          text: mrkdwn('*Root cause* `OOM_KILLED`'),
          fields: [mrkdwn('*Limit*\n256Mi'), mrkdwn('*Needs*\n384Mi')],
          accessory: { type: 'button', text: plain('Logs'), action_id: 'logs.open', value: 'x' },
        },
      ],
      dir,
    );
    expect(html).toContain('<div class="bk-text"><b>Root cause</b> <code>OOM_KILLED</code></div>');
    expect(html).toContain(
      '<div class="bk-fields"><div class="bk-field"><b>Limit</b><br>256Mi</div><div class="bk-field"><b>Needs</b><br>384Mi</div></div>',
    );
    expect(html).toMatch(
      /<div class="bk-accessory"><button type="button" class="bk-button" data-block="0" data-element="accessory" data-action-id="logs.open">Logs<\/button><\/div>/,
    );
  });

  it('header, divider, context (text and image), image block', () => {
    const html = renderBlocks(
      [
        { type: 'header', text: plain('Incident :rotating_light:') },
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            mrkdwn('by <@U0ALICE>'),
            { type: 'image', image_url: 'data:image/png;base64,AA', alt_text: 'dot' },
          ],
        },
        {
          type: 'image',
          image_url: 'https://grafana.example.com/render.png',
          alt_text: 'latency graph',
          title: plain('p99'),
        },
      ],
      dir,
    );
    expect(html).toContain(
      '<div class="bk-block bk-header">Incident <span class="emoji" title=":rotating_light:">🚨</span></div>',
    );
    expect(html).toContain('<hr class="bk-block bk-divider">');
    expect(html).toContain(
      '<span class="bk-context-text">by <span class="mention" data-user="U0ALICE">@alice</span></span><img class="bk-context-image" src="data:image/png;base64,AA" alt="dot">',
    );
    // an outside image is named, not fetched
    expect(html).toContain(
      'latency graph <small>(grafana.example.com: not loaded, the playground stays offline)</small>',
    );
    expect(html).not.toContain('src="https://grafana');
  });

  it('actions: default, primary and danger buttons (a confirm is marked), a static select with its options, an overflow menu', () => {
    const html = renderBlocks(
      [
        {
          type: 'actions',
          block_id: 'remediation:rp-1',
          elements: [
            {
              type: 'button',
              text: plain('Approve'),
              style: 'primary',
              action_id: 'remediation.approve',
              value: 'rp-1',
            },
            {
              type: 'button',
              text: plain('Roll back'),
              style: 'danger',
              action_id: 'rollout.rollback',
              value: 'rp-2',
              confirm: { title: plain('Sure?'), text: mrkdwn('x'), confirm: plain('Yes'), deny: plain('No') },
            },
            {
              type: 'static_select',
              action_id: 'rollout.split',
              placeholder: plain('Set split'),
              options: [
                { text: plain('90/10'), value: '90' },
                { text: plain('50/50'), value: '50' },
              ],
            },
            { type: 'overflow', action_id: 'more', options: [{ text: plain('Mute 1h'), value: 'mute' }] },
          ],
        },
      ],
      dir,
    );
    expect(html).toContain(
      'class="bk-button bk-primary" data-block="0" data-element="0" data-action-id="remediation.approve">Approve</button>',
    );
    expect(html).toContain(
      'class="bk-button bk-danger" data-block="0" data-element="1" data-action-id="rollout.rollback" data-confirm="1">Roll back</button>',
    );
    expect(html).toContain(
      '<select class="bk-select" data-block="0" data-element="2" data-action-id="rollout.split"><option value="" disabled selected>Set split</option><option value="90">90/10</option><option value="50">50/50</option></select>',
    );
    expect(html).toContain(
      '<select class="bk-select bk-overflow" data-block="0" data-element="3" data-action-id="more"><option value="" disabled selected>⋯</option><option value="mute">Mute 1h</option></select>',
    );
  });

  it('rich_text: sections with styles, links and mentions, lists, preformatted, quote', () => {
    const html = renderBlocks(
      [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'see ', style: { bold: true } },
                { type: 'link', url: 'https://example.com', text: 'docs' },
                { type: 'user', user_id: 'U0ALICE' },
              ],
            },
            {
              type: 'rich_text_list',
              style: 'ordered',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] }],
            },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'a < b' }] },
            { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted' }] },
          ],
        },
      ],
      dir,
    );
    expect(html).toContain(
      '<div class="rt-section"><b>see </b><a href="https://example.com" target="_blank" rel="noopener noreferrer">docs</a><span class="mention">@alice</span></div>',
    );
    expect(html).toContain('<ol class="rt-list rt-indent-0"><li>one</li></ol>');
    expect(html).toContain('<pre class="code-block">a &lt; b</pre>');
    expect(html).toContain('<blockquote>quoted</blockquote>');
  });

  it('an unknown block type is shown as such, not dropped silently', () => {
    expect(renderBlocks([{ type: 'carousel' }], dir)).toContain('[carousel: not shown here]');
  });
});
