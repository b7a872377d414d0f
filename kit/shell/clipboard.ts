/**
 * Copying text to the user's clipboard as pi does it: the platform's own tool first (pbcopy, clip,
 * wl-copy, xclip, xsel, termux-clipboard-set), and OSC 52 — an escape sequence the terminal turns into
 * a clipboard write — where no tool can reach the clipboard that matters: over SSH (the client's
 * clipboard) and on a Linux box with no display. OSC 52 cannot be verified, so a desktop session whose
 * tools all failed is told so rather than assumed copied.
 */
import { childProcess } from "../process/node-builtins.js";

/** OSC 52 payloads above this many base64 characters are dropped by common terminals. */
const MAX_OSC52_LENGTH = 100_000;
const TOOL_TIMEOUT_MS = 5_000;

/** How a copy went: by a tool, by OSC 52 (the caller writes `osc52` to the terminal), or not at all. */
export type ClipboardResult =
  | { copied: true; via: "tool"; osc52?: string }
  | { copied: true; via: "osc52"; osc52: string }
  | { copied: false; reason: string };

/** Where the copy runs: platform and environment (injected so tests choose them). */
export interface ClipboardPlace {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

/** Copies `text`; never throws. A result with `osc52` asks the caller to write that sequence to the terminal. */
export async function copyToClipboard(
  text: string,
  place: ClipboardPlace = { platform: process.platform, env: process.env },
): Promise<ClipboardResult> {
  let copied = false;
  for (const [command, args] of clipboardTools(place)) {
    if (await runTool(command, args, text, place.env)) {
      copied = true;
      break;
    }
  }
  const { env, platform } = place;
  const remote = Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.MOSH_CONNECTION || env.PI_CLIPBOARD_OSC52 === "1");
  const headless = platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY && !env.TERMUX_VERSION;
  const sequence = remote || (!copied && headless) ? osc52(text) : undefined;
  if (copied) return sequence === undefined ? { copied, via: "tool" } : { copied, via: "tool", osc52: sequence };
  if (sequence !== undefined) return { copied: true, via: "osc52", osc52: sequence };
  if (remote || headless)
    return { copied: false, reason: "the text is too long for the terminal's clipboard (OSC 52)" };
  return { copied: false, reason: missingToolReason(place) };
}

/** The OSC 52 sequence that puts `text` on the clipboard; undefined when it is too long to send. */
export function osc52(text: string): string | undefined {
  const encoded = Buffer.from(text, "utf8").toString("base64");
  return encoded.length > MAX_OSC52_LENGTH ? undefined : `\x1b]52;c;${encoded}\x07`;
}

/** The clipboard tools to try on this platform, in order. */
export function clipboardTools({ platform, env }: ClipboardPlace): Array<[string, string[]]> {
  if (platform === "darwin") return [["pbcopy", []]];
  if (platform === "win32") return [["clip", []]];
  const tools: Array<[string, string[]]> = [];
  if (env.TERMUX_VERSION) tools.push(["termux-clipboard-set", []]);
  if (env.WAYLAND_DISPLAY) tools.push(["wl-copy", []]);
  if (env.DISPLAY) tools.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
  return tools;
}

/** Runs one tool with `text` on stdin; true when it exits 0 within the time limit. */
function runTool(command: string, args: string[], text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const child = childProcess().spawn(command, args, { stdio: ["pipe", "ignore", "ignore"], env });
    const timer = setTimeout(() => child.kill("SIGKILL"), TOOL_TIMEOUT_MS);
    child.on("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(text);
  });
}

/** What to install when no tool could copy. */
function missingToolReason({ platform, env }: ClipboardPlace): string {
  if (env.TERMUX_VERSION) return "install the Termux:API app and the termux-api package";
  if (platform === "linux" && env.WAYLAND_DISPLAY) return "install wl-clipboard (wl-copy) or check Wayland access";
  if (platform === "linux" && env.DISPLAY) return "install xclip or xsel, or check X11 access";
  return "no clipboard tool worked";
}
