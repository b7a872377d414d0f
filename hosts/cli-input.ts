/**
 * The first message, as pi builds it: piped stdin, then the `@file` arguments (a text file as
 * `<file name="/abs/path">\n...\n</file>`, an image as an attachment plus an empty `<file>` tag naming
 * it), then the first message from the command line. The other messages are sent after it, one by one.
 */
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ImageContent } from "../contracts/ai/index.js";
import type { ModeInput } from "../contracts/mode.js";
import { UsageError } from "./cli-flags.js";
import { expandHome } from "./paths.js";

/** Where the pieces of the first message come from. */
export interface InputSources {
  cwd: string;
  messages: string[];
  /** `@file` arguments, without the `@`. */
  files: string[];
  /** Piped stdin, already read; undefined when stdin is a terminal or was not read. */
  stdin: string | undefined;
  compatEvents: boolean;
}

/** Builds the mode's input. Throws UsageError naming the file when an @file is missing or unreadable. */
export async function buildModeInput(sources: InputSources): Promise<ModeInput> {
  const attached = await readFileArguments(sources.files, sources.cwd);
  const messages = [...sources.messages];
  // pi's order: stdin, the files, the first message. File blocks end in "\n", so the message starts on
  // its own line; a blank line keeps piped text apart from what follows (pi runs them together).
  const first = [sources.stdin ?? "", attached.text + (messages.shift() ?? "")].filter((part) => part !== "");
  if (first.length > 0) messages.unshift(first.join("\n\n"));
  return { messages, images: attached.images, compatEvents: sources.compatEvents };
}

/** Reads the text of `@file` arguments and the images among them. Empty files are skipped, as pi does. */
export async function readFileArguments(
  files: string[],
  cwd: string,
): Promise<{ text: string; images: ImageContent[] }> {
  let text = "";
  const images: ImageContent[] = [];
  for (const file of files) {
    const path = resolve(cwd, expandHome(file));
    let bytes: Buffer;
    try {
      const info = await stat(path);
      if (info.isDirectory()) throw new UsageError(`@${file} is a folder; attach files one by one`);
      bytes = await readFile(path);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === "ENOENT"
          ? `@${file}: no such file (${path})`
          : `@${file}: cannot be read (${(error as Error).message})`,
      );
    }
    if (bytes.length === 0) continue;
    const mimeType = imageMimeType(bytes);
    if (mimeType !== undefined) {
      images.push({ type: "image", mimeType, data: bytes.toString("base64") });
      text += `<file name="${path}"></file>\n`;
    } else {
      text += `<file name="${path}">\n${bytes.toString("utf8")}\n</file>\n`;
    }
  }
  return { text, images };
}

/** The image type by magic bytes (PNG, JPEG, GIF, WebP — what the providers accept); undefined for anything else. */
export function imageMimeType(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString("latin1"))) return "image/gif";
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "image/webp";
  return undefined;
}

/** Reads all of piped stdin; undefined when stdin is a terminal or what came was only whitespace (pi's rule). */
export async function readPipedStdin(stdin: NodeJS.ReadStream): Promise<string | undefined> {
  if (stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text === "" ? undefined : text;
}
