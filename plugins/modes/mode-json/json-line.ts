/**
 * One JSON value as one output line. JSON.stringify already escapes "\n" and "\r" inside strings, so the
 * only LF is the terminator; U+2028 and U+2029 are legal raw inside JSON strings but line breaks to
 * JavaScript readers such as Node's readline, so they are escaped too. The value parses back unchanged.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")}\n`;
}
