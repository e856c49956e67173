/** The page's mrkdwn renderer: Slack's escaping, control sequences, formatting at word boundaries. */
import { formatDateToken } from '../../../src/playground/page/date-token.js';
import { renderMrkdwn } from '../../../src/playground/page/mrkdwn.js';

const dir = {
  userName: (id: string) => ({ U0ALICE: 'alice', U0BOT: 'isvc-doctor' })[id],
  channelName: (id: string) => ({ C0ALERTS: 'isvc-alerts' })[id],
  me: 'U0ALICE',
};
const render = (text: string) => renderMrkdwn(text, dir);

describe('renderMrkdwn', () => {
  it("decodes Slack's three entities once and escapes everything for HTML", () => {
    expect(render('a &lt;b&gt; &amp;&amp; c')).toBe('a &lt;b&gt; &amp;&amp; c');
    expect(render('&amp;lt; stays an ampersand then lt')).toBe('&amp;lt; stays an ampersand then lt');
    expect(render('"quoted" \'single\'')).toBe('&quot;quoted&quot; &#39;single&#39;');
  });

  it('never lets markup through: a raw < that is not a control sequence is text', () => {
    expect(render('<script>alert(1)</script>')).not.toContain('<script');
    expect(render('<javascript:alert(1)|click>')).toBe('&lt;javascript:alert(1)|click&gt;');
  });

  it('renders links, user, channel, group and broadcast mentions', () => {
    expect(render('<https://example.com/a?b=1&amp;c=2|the docs>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the docs</a>',
    );
    expect(render('<@U0ALICE> and <@U0BOT>')).toBe(
      '<span class="mention mention-me" data-user="U0ALICE">@alice</span> and <span class="mention" data-user="U0BOT">@isvc-doctor</span>',
    );
    expect(render('<#C0ALERTS>')).toContain('#isvc-alerts');
    expect(render('<!subteam^S0PLATFORM|@platform>')).toContain('@platform');
    expect(render('<!here>')).toContain('@here');
  });

  it('bold, italic and strike only at word boundaries: snake_case and 2*3*4 stay as written', () => {
    expect(render('*Root cause* _maybe_ ~old~')).toBe('<b>Root cause</b> <i>maybe</i> <s>old</s>');
    expect(render('remediation_approve_button and 2*3*4')).toBe('remediation_approve_button and 2*3*4');
    expect(render('* not bold *')).toBe('* not bold *');
  });

  it('code spans and blocks are not formatted and keep their text', () => {
    expect(render('`*x* &lt;y&gt;`')).toBe('<code>*x* &lt;y&gt;</code>');
    expect(render('```\nline 1 *a*\nline 2\n```')).toBe('<pre class="code-block">line 1 *a*\nline 2\n</pre>');
    expect(render('`<@U0ALICE>`')).toBe('<code>@alice</code>');
  });

  it('quotes, emoji and newlines', () => {
    expect(render('&gt; quoted\nplain')).toBe('<blockquote>quoted</blockquote>plain');
    expect(render(':warning: x :not_an_emoji:')).toBe(
      '<span class="emoji" title=":warning:">⚠️</span> x :not_an_emoji:',
    );
    expect(render('a\nb')).toBe('a<br>b');
  });

  it('date tokens render in local time, with the fallback when the epoch is bad', () => {
    const epoch = Math.floor(new Date(2024, 1, 18, 6, 39, 45).getTime() / 1000);
    expect(render(`<!date^${epoch}^{date_num} {time}|fallback>`)).toContain('2024-02-18 6:39 AM');
    expect(render('<!date^abc^{date}|Feb 18>')).toBe('Feb 18');
    const now = new Date(2024, 1, 18, 6, 42, 45);
    expect(formatDateToken(epoch, '{ago}', now)).toBe('3 minutes ago');
    expect(formatDateToken(epoch, '{date_pretty} at {time_secs}', now)).toBe('today at 6:39:45 AM');
    expect(formatDateToken(epoch, '{date_long}', now)).toBe('Sunday, February 18th, 2024');
  });
});
