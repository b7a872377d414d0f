/**
 * Tells images, text and other binary files apart by their first bytes, not by their name: a model
 * reading "logo.png" that is really an SVG text file should get text, and "data.bin" holding a PNG
 * should get an image. The classification itself is kit's `classifyHead`, shared with the remote tools.
 */
import { open } from "node:fs/promises";
import { classifyHead, SNIFF_BYTES, type FileKind } from "pi-host";

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
