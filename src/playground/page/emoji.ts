/** The emoji shortcodes Slack messages commonly use (`:warning:` → ⚠️); others stay as written. */
const EMOJI: Record<string, string> = {
  white_check_mark: '✅', heavy_check_mark: '✔️', x: '❌', warning: '⚠️', red_circle: '🔴', large_green_circle: '🟢', large_yellow_circle: '🟡',
  large_orange_circle: '🟠', large_blue_circle: '🔵', white_circle: '⚪', black_circle: '⚫', rotating_light: '🚨', fire: '🔥', mag: '🔍', mag_right: '🔎',
  wrench: '🔧', hammer_and_wrench: '🛠️', hourglass: '⌛', hourglass_flowing_sand: '⏳', stopwatch: '⏱️', clock1: '🕐', information_source: 'ℹ️',
  bulb: '💡', memo: '📝', clipboard: '📋', bar_chart: '📊', chart_with_upwards_trend: '📈', link: '🔗', lock: '🔒', key: '🔑', package: '📦',
  rocket: '🚀', tada: '🎉', eyes: '👀', thumbsup: '👍', '+1': '👍', thumbsdown: '👎', '-1': '👎', zzz: '💤', no_entry: '⛔', no_entry_sign: '🚫',
  arrow_right: '➡️', arrow_left: '⬅️', arrows_counterclockwise: '🔄', repeat: '🔁', leftwards_arrow_with_hook: '↩️', recycle: '♻️', boom: '💥',
  skull: '💀', robot_face: '🤖', gear: '⚙️', bell: '🔔', no_bell: '🔕', mute: '🔇', speaker: '🔈', ok: '🆗', new: '🆕', sos: '🆘', question: '❓',
  grey_question: '❔', exclamation: '❗', heavy_exclamation_mark: '❗', stop_sign: '🛑', construction: '🚧', traffic_light: '🚦', vertical_traffic_light: '🚦',
  floppy_disk: '💾', scroll: '📜', page_facing_up: '📄', file_folder: '📁', card_index_dividers: '🗂️', brain: '🧠', test_tube: '🧪', microscope: '🔬',
  balance_scale: '⚖️', scales: '⚖️', sparkles: '✨', star: '⭐', point_right: '👉', shield: '🛡️', busts_in_silhouette: '👥', bust_in_silhouette: '👤',
  heavy_plus_sign: '➕', heavy_minus_sign: '➖', small_red_triangle_down: '🔻', small_red_triangle: '🔺', chart_with_downwards_trend: '📉',
  satellite_antenna: '📡', ghost: '👻', crossed_fingers: '🤞', pencil2: '✏️', pencil: '📝', envelope: '✉️', calendar: '📆', date: '📅',
};

export function emojiFor(name: string): string | undefined {
  return EMOJI[name.replace(/::skin-tone-\d$/, '')];
}

/** `:name:` shortcodes in already-escaped text replaced by the emoji. */
export function replaceEmoji(escaped: string): string {
  return escaped.replace(/:([a-z0-9_+-]+(?:::skin-tone-\d)?):/g, (all, name: string) => {
    const emoji = emojiFor(name);
    return emoji ? `<span class="emoji" title=":${name}:">${emoji}</span>` : all;
  });
}
