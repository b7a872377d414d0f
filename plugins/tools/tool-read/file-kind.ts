/**
 * Tells images, text and other binary files apart by their first bytes, not by their name: a model
 * reading "logo.png" that is really an SVG text file should get text, and "data.bin" holding a PNG
 * should get an image.
 */
import { open } from "node:fs/promises";

/** What the read tool does with a file. */
export type FileKind = { kind: "image"; mimeType: ImageMimeType } | { kind: "text" } | { kind: "binary" };

/** The image types every vision model accepts. */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** How much of the file is inspected; git looks at the same 8,000 bytes to call a file binary. */
const SNIFF_BYTES = 8_000;

/** Classifies the file at `absolutePath` from its first bytes. */
export async function detectFileKind(absolutePath: string): Promise<FileKind> {
  const handle = await open(absolutePath, "r");
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return classifyHead(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Classifies a file from its leading bytes. */
export function classifyHead(head: Buffer): FileKind {
  const mimeType = imageMimeType(head);
  if (mimeType !== undefined) return { kind: "image", mimeType };
  return head.includes(0) ? { kind: "binary" } : { kind: "text" };
}

function imageMimeType(head: Buffer): ImageMimeType | undefined {
  const startsWith = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  const ascii = head.toString("latin1", 0, 12);
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return undefined;
}
