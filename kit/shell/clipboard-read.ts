/**
 * Reading the user's clipboard for pi's Ctrl+V: an image first, then text, through the tools pi 1.6.0
 * uses — on Linux `wl-paste` (a Wayland session) then `xclip`, asking each for the types on offer and
 * taking the first of PNG, JPEG, WebP, GIF; on macOS `osascript` (PNG) and `pbpaste` (text). A tool that
 * is missing or fails is skipped; an empty Wayland clipboard does not fall through to a stale X11 one.
 */
import type { ChildProcess } from "node:child_process";
import { childProcess } from "../process/node-builtins.js";
import type { ClipboardPlace } from "./clipboard.js";

/** pi's preferred image types, best first. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const LIST_TIMEOUT_MS = 1_000;
const READ_TIMEOUT_MS = 5_000;

/** An image from the clipboard. */
export interface ClipboardImage {
  bytes: Buffer;
  mimeType: string;
}

/** The file extension pi gives a clipboard image of `mimeType`. */
export function imageExtension(mimeType: string): string {
  return { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" }[mimeType] ?? "png";
}

/** Runs a tool; its stdout, or undefined when it is missing, fails or takes too long. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = READ_TIMEOUT_MS,
): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = childProcess().spawn(command, args, { stdio: ["ignore", "pipe", "ignore"], env });
    } catch {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? Buffer.concat(chunks) : undefined);
    });
  });
}

/** The preferred image type among those a tool lists. */
export function preferredImageType(listed: string): string | undefined {
  const types = listed
    .split(/\r?\n/)
    .map((t) => t.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
  return IMAGE_TYPES.find((t) => types.includes(t)) ?? types.find((t) => t.startsWith("image/"));
}

/** Undefined: the tool could not be asked; null: it has no image. */
async function viaTool(
  list: [string, string[]],
  read: (type: string) => [string, string[]],
  env: NodeJS.ProcessEnv,
): Promise<ClipboardImage | null | undefined> {
  const listed = await run(list[0], list[1], env, LIST_TIMEOUT_MS);
  if (listed === undefined) return undefined;
  const type = preferredImageType(listed.toString("utf8"));
  if (type === undefined) return null;
  const [command, args] = read(type);
  const bytes = await run(command, args, env);
  if (bytes === undefined) return undefined;
  return bytes.length === 0 ? null : { bytes, mimeType: type };
}

/** The clipboard's image, or null when it holds none (or no tool can read it). */
export async function readClipboardImage(
  place: ClipboardPlace = { platform: process.platform, env: process.env },
): Promise<ClipboardImage | null> {
  const { platform, env } = place;
  if (env.TERMUX_VERSION) return null;
  if (platform === "darwin") {
    // AppleScript hands the PNG flavour over as «data PNGf…» hex.
    const out = await run("osascript", ["-e", "the clipboard as «class PNGf»"], env);
    const hex = /«data PNGf([0-9A-Fa-f]+)»/.exec(out?.toString("utf8") ?? "")?.[1];
    return hex === undefined ? null : { bytes: Buffer.from(hex, "hex"), mimeType: "image/png" };
  }
  if (platform !== "linux") return null;
  let image: ClipboardImage | null | undefined;
  if (env.WAYLAND_DISPLAY || env.XDG_SESSION_TYPE === "wayland")
    image = await viaTool(["wl-paste", ["--list-types"]], (t) => ["wl-paste", ["--type", t, "--no-newline"]], env);
  if (image === undefined)
    image = await viaTool(
      ["xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]],
      (t) => ["xclip", ["-selection", "clipboard", "-t", t, "-o"]],
      env,
    );
  return image ?? null;
}

/** The clipboard's text, or undefined when there is none (or no tool can read it). */
export async function readClipboardText(
  place: ClipboardPlace = { platform: process.platform, env: process.env },
): Promise<string | undefined> {
  const { platform, env } = place;
  const tools: Array<[string, string[]]> =
    platform === "darwin"
      ? [["pbpaste", []]]
      : platform === "linux"
        ? [
            ...(env.TERMUX_VERSION ? [["termux-clipboard-get", []] as [string, string[]]] : []),
            ...(env.WAYLAND_DISPLAY ? [["wl-paste", ["--no-newline"]] as [string, string[]]] : []),
            ["xclip", ["-selection", "clipboard", "-o"]],
            ["xsel", ["--clipboard", "--output"]],
          ]
        : [];
  for (const [command, args] of tools) {
    const out = await run(command, args, env);
    if (out !== undefined && out.length > 0) return out.toString("utf8");
  }
  return undefined;
}
