/**
 * The playground page: a Slack-like workspace (channels, a message box, threads, a person switcher)
 * over the Slack stand-in, and the simulated cluster beside it. State comes from GET /ui/state, then
 * live from the server-sent events at /events; what a person does goes to /ui/* and from there to the
 * bot as signed Slack requests.
 */
import { getJson, postJson } from './api.js';
import { recentLines, renderBreakActions, renderRows, renderYaml } from './cluster-panel.js';
import { formatDateToken } from './date-token.js';
import { askConfirm, modalValues, showModal } from './dialogs.js';
import { escapeHtml } from './html.js';
import { renderMessage, type MessageViewContext } from './message-view.js';
import type { Directory } from './mrkdwn.js';
import type { BreakAction, LogLine, Message, OpenView, PageState, SlackEvent } from './page-types.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const ui = {
  state: undefined as PageState | undefined,
  messages: new Map<string, Message>(),
  me: localStorage.getItem('playground.me') ?? 'U0CAROL',
  channel: localStorage.getItem('playground.channel') ?? 'C0MLPLATFORM',
  thread: undefined as string | undefined,
  isvc: undefined as string | undefined,
  yaml: new Map<string, string>(),
  landed: new Map<string, Map<string, number>>(),
};

function directory(): Directory {
  const people = new Map((ui.state?.people ?? []).map((p) => [p.id, p.name]));
  const channels = new Map((ui.state?.channels ?? []).map((c) => [c.id, c.name]));
  return {
    userName: (id) => (id === ui.state?.bot.id ? ui.state.bot.name : people.get(id)),
    channelName: (id) => channels.get(id),
    me: ui.me,
  };
}

const key = (m: { channel: string; ts: string }) => `${m.channel}/${m.ts}`;
const visible = (m: Message) => !m.ephemeralTo || m.ephemeralTo === ui.me;
const byTs = (a: Message, b: Message) => Number(a.ts) - Number(b.ts);

function renderList(messages: Message[], summaries: boolean): string {
  const ctx: MessageViewContext = { dir: directory(), botId: ui.state?.bot.id ?? '', summaries };
  return messages.map((m, i) => renderMessage(m, messages[i - 1], ctx)).join('');
}

function renderChannel(): void {
  const channel = ui.state?.channels.find((c) => c.id === ui.channel);
  $('channel-name').textContent = channel ? `# ${channel.name}` : '#';
  $('channel-topic').textContent = channel && !channel.botMember ? '@isvc-doctor is not in this channel' : '';
  const roots = [...ui.messages.values()]
    .filter((m) => m.channel === ui.channel && (!m.threadTs || m.threadTs === m.ts) && visible(m))
    .sort(byTs);
  const list = $('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  list.innerHTML = roots.length
    ? renderList(roots, true)
    : '<p class="empty">No messages yet. Try <code>/isvc diagnose fraud-model -n ml-team</code></p>';
  if (atBottom) list.scrollTop = list.scrollHeight;
  $<HTMLTextAreaElement>('composer-input').placeholder = `Message #${channel?.name ?? ''}`;
  renderSidebar();
}

function renderThread(): void {
  const pane = $('thread');
  const root = ui.thread ? ui.messages.get(`${ui.channel}/${ui.thread}`) : undefined;
  pane.hidden = !root;
  document.body.classList.toggle('thread-open', Boolean(root));
  if (!root) return;
  const replies = [...ui.messages.values()]
    .filter((m) => m.channel === root.channel && m.threadTs === root.ts && m.ts !== root.ts && visible(m))
    .sort(byTs);
  const list = $('thread-messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const divider = `<div class="reply-divider"><span>${root.replyCount} ${root.replyCount === 1 ? 'reply' : 'replies'}</span></div>`;
  list.innerHTML = renderList([root], false) + divider + renderList(replies, false);
  if (atBottom) list.scrollTop = list.scrollHeight;
  $('thread-channel').textContent = `# ${ui.state?.channels.find((c) => c.id === root.channel)?.name ?? ''}`;
}

function renderSidebar(): void {
  if (!ui.state) return;
  $('team-name').textContent = ui.state.team;
  $('channels').innerHTML = ui.state.channels
    .map((c) => {
      const unread =
        [...ui.messages.values()].some((m) => m.channel === c.id && !m.threadTs && visible(m)) && c.id !== ui.channel;
      return `<li><button type="button" class="channel-link${c.id === ui.channel ? ' active' : ''}${unread ? ' unread' : ''}" data-channel-id="${escapeHtml(c.id)}"># ${escapeHtml(c.name)}</button></li>`;
    })
    .join('');
  $('people').innerHTML = ui.state.people
    .map(
      (p) =>
        `<label class="person${p.id === ui.me ? ' active' : ''}"><input type="radio" name="me" value="${escapeHtml(p.id)}"${p.id === ui.me ? ' checked' : ''}> <span class="person-name">${escapeHtml(p.name)}</span> <span class="person-title">${escapeHtml(p.title ?? '')}</span></label>`,
    )
    .join('');
}

function renderProcesses(processes: Record<string, string>): void {
  const failed = Object.entries(processes).filter(([, s]) => s.startsWith('stopped'));
  $('processes').innerHTML = Object.entries(processes)
    .map(
      ([name, status]) =>
        `<li class="${status.startsWith('stopped') ? 'process-down' : 'process-up'}"><b>${escapeHtml(name)}</b> ${escapeHtml(status)}</li>`,
    )
    .join('');
  const banner = $('banner');
  banner.hidden = failed.length === 0;
  banner.textContent =
    failed.map(([, s]) => s.replace(/^stopped: /, '')).join('; ') +
    (failed.length ? ' — see the terminal; restart the playground.' : '');
}

function renderLogs(lines: LogLine[]): void {
  $('bot-log').textContent = lines
    .slice(-60)
    .map((l) => `${l.time?.slice(11, 19) ?? ''} ${l.level} ${l.msg}`)
    .join('\n');
}

function renderCluster(): void {
  $('isvc-rows').innerHTML = renderRows(ui.state?.cluster.rows ?? [], ui.isvc);
}

async function loadIsvc(changed = false): Promise<void> {
  if (!ui.isvc) return;
  const [namespace, name] = ui.isvc.split('/');
  const { yaml, actions } = await getJson<{ yaml: string; actions: BreakAction[] }>(
    `/ui/isvc?namespace=${encodeURIComponent(namespace!)}&name=${encodeURIComponent(name!)}`,
  );
  const before = changed ? ui.yaml.get(ui.isvc) : undefined;
  ui.yaml.set(ui.isvc, yaml);
  const seen = ui.landed.get(ui.isvc) ?? new Map<string, number>();
  ui.landed.set(ui.isvc, seen);
  $('isvc-title').textContent = ui.isvc;
  $('isvc-yaml').innerHTML = renderYaml(yaml, recentLines(yaml, before, seen, Date.now()));
  $('break-actions').innerHTML = renderBreakActions(actions);
  $('isvc-detail').hidden = false;
}

function status(text: string, error = false): void {
  const node = $('composer-status');
  node.textContent = text;
  node.classList.toggle('error', error);
}

function applySlack(event: SlackEvent): void {
  if (event.kind === 'reset') ui.messages.clear();
  else if (event.kind === 'message') {
    if (event.change === 'deleted') ui.messages.delete(key(event.message));
    else ui.messages.set(key(event.message), event.message);
  } else if (event.kind === 'view' && event.change === 'opened' && event.view.user === ui.me) openModal(event.view);
  renderChannel();
  renderThread();
}

let modalView: OpenView | undefined;
function openModal(view: OpenView): void {
  modalView = view;
  showModal($<HTMLDialogElement>('modal'), view.view, directory());
}

async function send(text: string, threadTs?: string): Promise<void> {
  if (!text.trim()) return;
  const who = directory().userName(ui.me);
  try {
    const r = await postJson<{ status: number; ms: number }>('/ui/send', {
      user: ui.me,
      channel: ui.channel,
      text,
      ...(threadTs ? { threadTs } : {}),
    });
    status(
      r.status
        ? `${text.startsWith('/') ? 'slash command' : 'app_mention'} sent as ${who}: HTTP ${r.status} in ${r.ms} ms`
        : `message posted as ${who}`,
      r.status >= 400,
    );
  } catch (error) {
    status(`not sent: ${(error as Error).message}`, true);
  }
}

async function clickElement(target: HTMLElement, value?: string): Promise<void> {
  const article = target.closest<HTMLElement>('article.message');
  if (!article) return;
  const message = ui.messages.get(`${article.dataset.channel}/${article.dataset.ts}`);
  const blockIndex = Number(target.dataset.block);
  const block = message?.blocks?.[blockIndex] as Record<string, any> | undefined;
  const element =
    target.dataset.element === 'accessory' ? block?.accessory : block?.elements?.[Number(target.dataset.element)];
  if (!message || !element) return;
  if (element.confirm && !(await askConfirm($<HTMLDialogElement>('confirm'), element.confirm, directory()))) return;
  if (target.dataset.url) window.open(target.dataset.url, '_blank', 'noopener');
  try {
    const r = await postJson<{ status: number; ms: number }>('/ui/click', {
      user: ui.me,
      channel: message.channel,
      messageTs: message.ts,
      block: blockIndex,
      element: target.dataset.element,
      ...(value !== undefined ? { value } : {}),
    });
    status(
      `block_actions ${element.action_id ?? ''} sent as ${directory().userName(ui.me)}: HTTP ${r.status} in ${r.ms} ms`,
      r.status >= 400,
    );
  } catch (error) {
    status(`click not sent: ${(error as Error).message}`, true);
  }
}

function onMessagesClick(event: Event): void {
  const target = event.target as HTMLElement;
  const button = target.closest<HTMLElement>('button.bk-button[data-block]');
  if (button) return void clickElement(button);
  const thread = target.closest<HTMLElement>('[data-open-thread]');
  if (thread) {
    ui.thread = thread.dataset.openThread;
    renderThread();
    return;
  }
  if (target.closest('.dismiss')) {
    const article = target.closest<HTMLElement>('article.message');
    if (article) void postJson('/ui/dismiss', { channel: article.dataset.channel, ts: article.dataset.ts });
  }
}

function onMessagesChange(event: Event): void {
  const select = (event.target as HTMLElement).closest<HTMLSelectElement>('select[data-block]');
  if (select) void clickElement(select, select.value);
}

function wireComposer(form: HTMLFormElement, input: HTMLTextAreaElement, thread: () => string | undefined): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
    input.value = '';
    void send(text, thread());
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

function wire(): void {
  for (const id of ['messages', 'thread-messages']) {
    $(id).addEventListener('click', onMessagesClick);
    $(id).addEventListener('change', onMessagesChange);
  }
  wireComposer($<HTMLFormElement>('composer'), $<HTMLTextAreaElement>('composer-input'), () => undefined);
  wireComposer($<HTMLFormElement>('thread-composer'), $<HTMLTextAreaElement>('thread-input'), () => ui.thread);
  $('thread-close').addEventListener('click', () => {
    ui.thread = undefined;
    renderThread();
  });
  $('channels').addEventListener('click', (event) => {
    const id = (event.target as HTMLElement).closest<HTMLElement>('[data-channel-id]')?.dataset.channelId;
    if (!id) return;
    ui.channel = id;
    ui.thread = undefined;
    localStorage.setItem('playground.channel', id);
    renderChannel();
    renderThread();
  });
  $('people').addEventListener('change', (event) => {
    ui.me = (event.target as HTMLInputElement).value;
    localStorage.setItem('playground.me', ui.me);
    renderChannel();
    renderThread();
  });
  $('isvc-rows').addEventListener('click', (event) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-isvc]');
    if (!row) return;
    ui.isvc = row.dataset.isvc;
    renderCluster();
    void loadIsvc();
  });
  $('break-actions').addEventListener('click', (event) => {
    const action = (event.target as HTMLElement).closest<HTMLElement>('[data-break]')?.dataset.break;
    if (!action || !ui.isvc) return;
    const [namespace, name] = ui.isvc.split('/');
    void postJson('/ui/break', { namespace, name, action }).then(
      () =>
        status(
          `${action} applied to ${ui.isvc}: the controller rolls it out, the watcher notices after alerts.unreadyAfter`,
        ),
      (error: Error) => status(error.message, true),
    );
  });
  $('rate-limit').addEventListener(
    'click',
    () =>
      void postJson('/ui/fault', { count: 3, retryAfter: 2 }).then(() =>
        status('the next 3 Web API calls get 429 with Retry-After: 2'),
      ),
  );
  $<HTMLDialogElement>('modal').addEventListener('close', () => {
    const dialog = $<HTMLDialogElement>('modal');
    if (dialog.returnValue === 'submit' && modalView)
      void postJson('/ui/submit', { user: ui.me, viewId: modalView.id, values: modalValues(dialog, modalView.view) });
    modalView = undefined;
  });
}

function refreshDates(): void {
  for (const node of document.querySelectorAll<HTMLElement>('time.date-token')) {
    node.textContent = formatDateToken(Number(node.dataset.epoch), node.dataset.format ?? '');
  }
}

function listen(): void {
  const events = new EventSource('/events');
  events.addEventListener('slack', (e) => applySlack(JSON.parse((e as MessageEvent<string>).data) as SlackEvent));
  events.addEventListener('cluster', (e) => {
    const data = JSON.parse((e as MessageEvent<string>).data) as {
      rows: PageState['cluster']['rows'];
      changed: string;
    };
    if (ui.state) ui.state.cluster.rows = data.rows;
    renderCluster();
    if (data.changed === ui.isvc) void loadIsvc(true);
  });
  events.addEventListener('process', (e) =>
    renderProcesses(JSON.parse((e as MessageEvent<string>).data) as Record<string, string>),
  );
  const lines: LogLine[] = ui.state?.logs ?? [];
  events.addEventListener('log', (e) => {
    lines.push(JSON.parse((e as MessageEvent<string>).data) as LogLine);
    if (lines.length > 300) lines.shift();
    renderLogs(lines);
  });
  events.addEventListener('open', () => document.body.classList.remove('disconnected'));
  events.addEventListener('error', () => document.body.classList.add('disconnected'));
}

async function boot(): Promise<void> {
  ui.state = await getJson<PageState>('/ui/state');
  for (const m of ui.state.messages) ui.messages.set(key(m), m);
  if (!ui.state.people.some((p) => p.id === ui.me)) ui.me = ui.state.people[0]?.id ?? '';
  if (!ui.state.channels.some((c) => c.id === ui.channel)) ui.channel = ui.state.channels[0]?.id ?? '';
  ui.isvc = ui.state.cluster.rows.find((r) => r.name === 'fraud-model')?.namespace ? 'ml-team/fraud-model' : undefined;
  wire();
  renderChannel();
  renderThread();
  renderCluster();
  renderProcesses(ui.state.processes);
  renderLogs(ui.state.logs);
  void loadIsvc();
  listen();
  setInterval(refreshDates, 30_000);
  document.body.classList.add('ready');
}

void boot();
