/**
 * Text from the cluster (log lines, messages, names) made safe to print in a terminal: control
 * characters are shown, not obeyed, so a log cannot clear the screen, move the cursor, set the
 * window title or print an OSC 8 hyperlink. C0 controls other than newline and tab are shown in
 * caret notation (ESC as `^[`, CR as `^M`), DEL as `^?`; C1 controls (U+0080-U+009F, such as the
 * one-character CSI U+009B) and the bidirectional overrides and isolates that make a line read
 * otherwise than it is (U+202A-U+202E, U+2066-U+2069) as `<U+009B>`.
 * The structured outputs (`-o json`, `-o yaml`) keep the value and write each such character as
 * the escape `\u009b` instead (`unicodeEscaped`): JSON.stringify escapes C0 controls but leaves
 * DEL, C1 and the bidirectional controls raw, and so does the yaml printer.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Whether the text holds a character a terminal would obey (newline and tab are safe). */
export function hasTerminalControls(text: string): boolean {
  return text.search(UNSAFE) !== -1;
}

/**
 * Each character a terminal would obey written as a `\uXXXX` escape: for text where such characters
 * can only stand inside strings that take that escape (a JSON text, YAML double-quoted scalars).
 */
export function unicodeEscaped(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    if (code === 0x7f) return '^?';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}
