/**
 * pi 1.6.0's `images.autoResize` (on by default): an image over 2000×2000 pixels, or over 4.5 MB of
 * base64, is scaled down before a model sees it — PNG or JPEG (quality 80), whichever is smaller, then
 * lower JPEG qualities, then three quarters of the size at a time until it fits — and pi's note says
 * how coordinates map back. The image library (Photon, WebAssembly, the one pi uses) is loaded on the
 * first image that needs it, so a run without large images never loads it. Results are cached by the
 * image's data, since every turn converts the whole transcript again.
 */
import type { ImageContent, Message, TextContent } from "pi-host";

const MAX_SIDE = 2000;
/** pi's bound: 4.5 MB of base64, under Anthropic's 5 MB. */
const MAX_BYTES = 4.5 * 1024 * 1024;
const JPEG_QUALITIES = [80, 85, 70, 55, 40];

type Photon = typeof import("@silvia-odwyer/photon-node");

let photon: Promise<Photon | undefined> | undefined;
function loadPhoton(): Promise<Photon | undefined> {
  photon ??= import("@silvia-odwyer/photon-node").then(
    (m) => ((m as { default?: Photon }).default ?? m) as Photon,
    () => undefined,
  );
  return photon;
}

/** What a resized image becomes: the image and pi's note, or undefined when it is used as it is. */
type Resized = { image: ImageContent; note: string } | undefined;

const cache = new Map<string, Resized>();

/** The image scaled down as pi scales it; undefined when it fits already or cannot be decoded. */
async function resize(image: ImageContent): Promise<Resized> {
  const bytes = Buffer.from(image.data, "base64");
  const lib = await loadPhoton();
  if (lib === undefined) return undefined;
  let source: InstanceType<Photon["PhotonImage"]>;
  try {
    source = lib.PhotonImage.new_from_byteslice(bytes);
  } catch {
    return undefined;
  }
  try {
    const width = source.get_width();
    const height = source.get_height();
    if (width <= MAX_SIDE && height <= MAX_SIDE && image.data.length < MAX_BYTES) return undefined;
    let w = width;
    let h = height;
    if (w > MAX_SIDE) [w, h] = [MAX_SIDE, Math.max(1, Math.round((h * MAX_SIDE) / w))];
    if (h > MAX_SIDE) [w, h] = [Math.max(1, Math.round((w * MAX_SIDE) / h)), MAX_SIDE];
    for (;;) {
      const scaled = lib.resize(source, w, h, lib.SamplingFilter.Lanczos3);
      try {
        const png = { data: Buffer.from(scaled.get_bytes()).toString("base64"), mimeType: "image/png" };
        const jpegs = JPEG_QUALITIES.map((q) => ({
          data: Buffer.from(scaled.get_bytes_jpeg(q)).toString("base64"),
          mimeType: "image/jpeg",
        }));
        const [first, ...lower] = jpegs;
        const preferred = first!.data.length < png.data.length ? [first!, png] : [png, first!];
        const fit = [...preferred, ...lower].find((c) => c.data.length < MAX_BYTES);
        if (fit !== undefined) {
          const scale = (width / w).toFixed(2);
          return {
            image: { type: "image", data: fit.data, mimeType: fit.mimeType },
            note: `[Image: original ${width}x${height}, displayed at ${w}x${h}. Multiply coordinates by ${scale} to map to original image.]`,
          };
        }
      } finally {
        scaled.free();
      }
      if (w === 1 && h === 1) return undefined;
      [w, h] = [Math.max(1, Math.floor(w * 0.75)), Math.max(1, Math.floor(h * 0.75))];
    }
  } finally {
    source.free();
  }
}

async function resizedOf(image: ImageContent): Promise<Resized> {
  if (cache.has(image.data)) return cache.get(image.data);
  const result = await resize(image).catch(() => undefined);
  cache.set(image.data, result);
  // A long session's images stay few; the oldest go first.
  if (cache.size > 64) cache.delete(cache.keys().next().value!);
  return result;
}

/** The messages with each oversized image of user messages and tool results scaled down, pi's note after it. */
export async function withResizedImages(messages: Message[]): Promise<Message[]> {
  const out: Message[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown }).content;
    if ((message.role !== "user" && message.role !== "toolResult") || !Array.isArray(content)) {
      out.push(message);
      continue;
    }
    let changed = false;
    const blocks: Array<TextContent | ImageContent> = [];
    for (const block of content as Array<TextContent | ImageContent>) {
      const resized = block.type === "image" ? await resizedOf(block) : undefined;
      if (resized === undefined) {
        blocks.push(block);
        continue;
      }
      changed = true;
      blocks.push(resized.image, { type: "text", text: resized.note });
    }
    out.push(changed ? ({ ...message, content: blocks } as Message) : message);
  }
  return out;
}
