/**
 * Provider-sourced error text made safe to show and to store. A provider's error body is untrusted: it
 * can be megabytes long (it would flood the terminal and, once per retry, the session file) and it can
 * carry terminal escape sequences (a title change, a cleared screen). Every error message that leaves a
 * provider stream passes through `cleanErrorText`.
 */

/** How much of an error text is kept; the rest is replaced by a note saying how much was cut. */
export const ERROR_TEXT_LIMIT = 4_096;

/** ANSI/VT escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), and two-byte escapes. */
const ESCAPE_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]/g;

/** C0 and C1 control characters except tab and newline (carriage return included: it rewrites lines). */
const CONTROL_CHARACTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Removes escape sequences and control characters (keeping `\n` and `\t`), then keeps the first
 * `limit` bytes of UTF-8 followed by "… (N bytes cut)". Cuts on a character boundary.
 */
export function cleanErrorText(text: string, limit: number = ERROR_TEXT_LIMIT): string {
  // Cut first (cheaply, by characters) so a 20 MB body is never scanned by the regexes in full.
  const head = text.length > limit * 2 ? text.slice(0, limit * 2) : text;
  const clean = head.replace(ESCAPE_SEQUENCE, "").replace(CONTROL_CHARACTER, "");
  const cleanBytes = Buffer.byteLength(clean, "utf8");
  const droppedBytes = Buffer.byteLength(text, "utf8") - Buffer.byteLength(head, "utf8");
  if (cleanBytes <= limit && droppedBytes === 0) return clean;
  let kept = Buffer.from(clean, "utf8").subarray(0, limit).toString("utf8");
  // A multi-byte character split at the limit decodes as U+FFFD; drop it.
  if (kept.endsWith("\uFFFD") && !clean.startsWith(kept)) kept = kept.slice(0, -1);
  const cut = cleanBytes - Buffer.byteLength(kept, "utf8") + droppedBytes;
  return cut > 0 ? `${kept}… (${cut} bytes cut)` : kept;
}
