/**
 * Text from user input (brief keys, file names, worker output) made safe to print on a terminal:
 * control characters other than newline and tab are shown as escapes (`\x1b`, `\u009b`) instead of
 * being written raw, so a brief cannot move the cursor, recolour the screen or retitle the window.
 */
export function terminalText(text: string): string {
  // C0 controls (but \t and \n), DEL, and C1 controls (U+0080..U+009F, 0x9b is a one-byte CSI).
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
