/**
 * pi's program status (the Program Status Protocol, OSC 7501): the shell tells a terminal whether pi is
 * idle, working, blocked on the user, done or failed, as the view's frames say. Reports go out only once
 * the terminal answered the protocol's query (asked with the start-up colour query, whose DA1 reply ends
 * the wait), or when `PI_PROGRAM_STATUS=1`; `PI_PROGRAM_STATUS=0` turns them off. Messages are cleaned of
 * control characters and cut to 2048 bytes; the run's end clears the status.
 */
import type { TuiProgramStatus } from "pi-host";

/** The protocol's support query; a supporting terminal answers with the same body. */
export const PROGRAM_STATUS_QUERY = "\x1b]7501;?\x1b\\";
/** A reply to the query (later revisions may add pairs after the `?`). */
const REPLY = /\x1b\]7501;\?[^\x07\x1b]*(?:\x07|\x1b\\)/g;
const MAX_MESSAGE_BYTES = 2048;

/** One status report: `state=…[:kind=…][:msg=<base64>]`. */
export function formatProgramStatus(status: TuiProgramStatus | { state: "clear" }): string {
  const pairs = [`state=${status.state}`];
  if ("kind" in status && status.state === "blocked" && status.kind !== undefined) pairs.push(`kind=${status.kind}`);
  const message = "message" in status ? cut(clean(status.message ?? "").trim()) : "";
  if (message !== "") pairs.push(`msg=${Buffer.from(message, "utf8").toString("base64")}`);
  return `\x1b]7501;${pairs.join(":")}\x1b\\`;
}

/** Whether reports go out, and the last one sent (only changes are sent again). */
export class ProgramStatusReporter {
  private supported: boolean;
  private readonly asking: boolean;
  private last = "";

  constructor(
    private readonly write: (bytes: string) => void,
    setting: string | undefined = process.env.PI_PROGRAM_STATUS,
  ) {
    this.supported = setting === "1";
    this.asking = setting !== "1" && setting !== "0";
  }

  /** The query to send with the start-up colour query ("" when the setting decides). */
  query(): string {
    return this.asking ? PROGRAM_STATUS_QUERY : "";
  }

  /** Takes the terminal's replies out of its input; a reply turns reports on and sends the current status. */
  takeReplies(chunk: string): string {
    if (!this.asking || !chunk.includes("\x1b]7501")) return chunk;
    return chunk.replace(REPLY, () => {
      if (!this.supported) {
        this.supported = true;
        if (this.last !== "") this.write(this.last);
      }
      return "";
    });
  }

  /** A frame's status: sent when it changed (remembered until the terminal says it can take it). */
  report(status: TuiProgramStatus | undefined): void {
    if (status === undefined) return;
    const report = formatProgramStatus(status);
    if (report === this.last) return;
    this.last = report;
    if (this.supported) this.write(report);
  }

  /** The run ends: the terminal forgets the status. */
  clear(): void {
    if (this.supported && this.last !== "") this.write(formatProgramStatus({ state: "clear" }));
    this.last = "";
  }
}

function clean(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
}

function cut(text: string): string {
  if (Buffer.byteLength(text, "utf8") <= MAX_MESSAGE_BYTES) return text;
  let out = "";
  for (const char of text) {
    if (Buffer.byteLength(out + char, "utf8") > MAX_MESSAGE_BYTES) break;
    out += char;
  }
  return out;
}
