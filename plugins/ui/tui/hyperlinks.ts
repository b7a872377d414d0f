/**
 * pi 1.6.0's OSC 8 hyperlinks (`terminal.hyperlinks`: true, false or "auto"; `PI_HYPERLINKS=1|0`):
 * markdown links and bare URLs become clickable text, and the paths in tool titles link to their
 * `file://` URL. "auto" decides as pi does: inside tmux only when the attached client forwards them
 * (`client_termfeatures` lists `hyperlinks`), never in screen, on for the terminals known to support them
 * (kitty, Ghostty, WezTerm, iTerm2, Windows Terminal, Alacritty, VS Code, Zed, Warp, …), off for the rest,
 * where a link would hide its URL. Without links, a link whose text differs from its URL shows `(url)`.
 */
import { childProcess } from "pi-host";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

let setting: unknown = "auto";
let decided: boolean | undefined;

/** Sets `terminal.hyperlinks` from the settings read at start; the next question decides again. */
export function setHyperlinkSetting(value: unknown): void {
  setting = value;
  decided = undefined;
}

/** Whether links are drawn as OSC 8 hyperlinks now. */
export function hyperlinksOn(): boolean {
  if (typeof setting === "boolean") return setting;
  decided ??= detect(process.env);
  return decided;
}

/** `text` as a hyperlink to `url` (OSC 8, closed after the text). */
export function hyperlink(text: string, url: string): string {
  return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}

/** A tool title with `path` (its first occurrence) linked to the file, when links are on. */
export function linkPathIn(title: string, path: unknown, cwd: string = process.cwd()): string {
  if (typeof path !== "string" || path === "" || !hyperlinksOn()) return title;
  const at = title.indexOf(path);
  if (at === -1) return title;
  const home = process.env.HOME ?? "";
  const absolute = resolve(cwd, path.startsWith("~/") && home !== "" ? `${home}${path.slice(1)}` : path);
  return `${title.slice(0, at)}${hyperlink(path, pathToFileURL(absolute).href)}${title.slice(at + path.length)}`;
}

/** pi's environment rules (PI_HYPERLINKS first). */
export function detect(env: NodeJS.ProcessEnv, tmuxForwards: () => boolean = probeTmux): boolean {
  if (env.PI_HYPERLINKS === "1") return true;
  if (env.PI_HYPERLINKS === "0") return false;
  const program = env.TERM_PROGRAM?.toLowerCase() ?? "";
  const term = env.TERM?.toLowerCase() ?? "";
  if (env.TMUX || term.startsWith("tmux")) return tmuxForwards();
  if (term.startsWith("screen")) return false;
  if (["herdr", "rex", "kitty", "ghostty", "wezterm", "warpterminal", "iterm.app"].includes(program)) return true;
  if (program === "orca" && env.ORCA_IMAGE_PROTOCOL === "kitty") return true;
  if (env.KITTY_WINDOW_ID || env.GHOSTTY_RESOURCES_DIR || term.includes("ghostty") || env.WEZTERM_PANE) return true;
  if (env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID || env.ITERM_SESSION_ID || env.WT_SESSION) return true;
  if (program === "alacritty" || term.startsWith("alacritty") || env.ALACRITTY_WINDOW_ID) return true;
  return program === "vscode" || program === "zed";
}

/** Whether the tmux client this runs under re-emits OSC 8 (false on any error). */
function probeTmux(): boolean {
  try {
    const features = childProcess().execFileSync("tmux", ["display-message", "-p", "#{client_termfeatures}"], {
      encoding: "utf8",
      timeout: 250,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return features
      .split(",")
      .map((feature) => feature.trim())
      .includes("hyperlinks");
  } catch {
    return false;
  }
}
