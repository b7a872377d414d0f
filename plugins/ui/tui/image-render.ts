/**
 * Images in the transcript as pi 1.6.0 shows them: inline through the kitty graphics protocol or
 * iTerm2's inline images when the terminal is known to draw them (detected from the environment as pi
 * does, `PI_IMAGE_PROTOCOL` and then the `terminal.images` setting overriding; never under tmux or
 * screen, which drop them), at most `terminal.imageWidthCells` wide, and as pi's text placeholder
 * (`[Image: [image/png] 640x480]`) everywhere else or with `terminal.showImages: false`.
 * An inline image is rows of the frame: kitty's sequence on the first row (the cursor kept in place)
 * and blank rows under it; iTerm2's on the last row after moving up over the blank rows above it.
 */

/** The inline image protocol a terminal speaks, or null for none. */
export type ImageProtocol = "kitty" | "iterm2" | null;

/** An image block of a message or tool result. */
export interface ImageBlock {
  data: string;
  mimeType: string;
}

/** Pixel size of an image. */
export interface ImageSize {
  widthPx: number;
  heightPx: number;
}

/** pi's default terminal cell size in pixels (the terminal is not asked). */
const CELL = { widthPx: 9, heightPx: 18 };

/** pi's image settings for this run, as the plugin read them. */
interface ImageOptions {
  /** `terminal.showImages`: false draws every image as its placeholder. */
  showImages: boolean;
  /** `terminal.imageWidthCells`: the widest an inline image is drawn. */
  widthCells: number;
  /** `terminal.images`: a protocol that beats the detection (null: none), or undefined to detect. */
  protocol: ImageProtocol | undefined;
}

let options: ImageOptions = { showImages: true, widthCells: 60, protocol: undefined };

/** Takes pi's `terminal.showImages`, `terminal.imageWidthCells` and `terminal.images` settings. */
export function setImageOptions(
  terminal: { showImages?: unknown; imageWidthCells?: unknown; images?: unknown } = {},
): void {
  const width = terminal.imageWidthCells;
  const images = terminal.images;
  options = {
    showImages: terminal.showImages !== false,
    widthCells: typeof width === "number" && Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 60,
    protocol: images === "kitty" || images === "iterm2" ? images : images === false ? null : undefined,
  };
}

/** What rendered rows depend on besides the image (they are cached by it). */
export function imagesShown(): string {
  return `${options.showImages}|${options.widthCells}|${options.protocol}`;
}

/** The protocol this run draws images with: none when hidden, the setting's, else the detected one. */
function runProtocol(): ImageProtocol {
  if (!options.showImages) return null;
  return options.protocol !== undefined ? options.protocol : detectImageProtocol();
}

/** The protocol the terminal speaks, from the environment, as pi-tui detects it. */
export function detectImageProtocol(env: NodeJS.ProcessEnv = process.env): ImageProtocol {
  const override = env.PI_IMAGE_PROTOCOL?.toLowerCase();
  if (override === "kitty" || override === "iterm2") return override;
  if (override === "none" || override === "0") return null;
  const program = env.TERM_PROGRAM?.toLowerCase() ?? "";
  const term = env.TERM?.toLowerCase() ?? "";
  // Multiplexers do not pass the sequences on reliably.
  if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen")) return null;
  if (program === "herdr" || program === "rex") return "kitty";
  if (program === "orca" && env.ORCA_IMAGE_PROTOCOL === "kitty") return "kitty";
  if (env.KITTY_WINDOW_ID || program === "kitty") return "kitty";
  if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return "kitty";
  if (env.WEZTERM_PANE || program === "wezterm") return "kitty";
  if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return "kitty";
  if (env.ITERM_SESSION_ID || program === "iterm.app") return "iterm2";
  return null;
}

/** The pixel size stored in a PNG, JPEG, GIF or WebP header; undefined when it cannot be read. */
export function imageSize(data: string, mimeType: string): ImageSize | undefined {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(data, "base64");
  } catch {
    return undefined;
  }
  try {
    if (mimeType === "image/png" && bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47)
      return { widthPx: bytes.readUInt32BE(16), heightPx: bytes.readUInt32BE(20) };
    if (mimeType === "image/gif" && /^GIF8[79]a/.test(bytes.subarray(0, 6).toString("latin1")))
      return { widthPx: bytes.readUInt16LE(6), heightPx: bytes.readUInt16LE(8) };
    if (mimeType === "image/jpeg") return jpegSize(bytes);
    if (mimeType === "image/webp") return webpSize(bytes);
  } catch {
    return undefined;
  }
  return undefined;
}

function jpegSize(bytes: Buffer): ImageSize | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset < bytes.length - 9) {
    if (bytes[offset] !== 0xff) {
      offset++;
      continue;
    }
    const marker = bytes[offset + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { widthPx: bytes.readUInt16BE(offset + 7), heightPx: bytes.readUInt16BE(offset + 5) };
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 30 || bytes.toString("latin1", 0, 4) !== "RIFF" || bytes.toString("latin1", 8, 12) !== "WEBP")
    return undefined;
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8 ") return { widthPx: bytes.readUInt16LE(26) & 0x3fff, heightPx: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { widthPx: bytes.readUIntLE(24, 3) + 1, heightPx: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** pi's text for an image the terminal does not draw. */
export function imagePlaceholder(mimeType: string, size: ImageSize | undefined): string {
  return `[Image: [${mimeType}]${size !== undefined ? ` ${size.widthPx}x${size.heightPx}` : ""}]`;
}

/** Columns and rows an image takes at most `maxColumns` wide and `maxRows` high, its shape kept. */
export function cellSize(size: ImageSize, maxColumns: number, maxRows: number): { columns: number; rows: number } {
  const width = Math.max(1, size.widthPx);
  const height = Math.max(1, size.heightPx);
  const scale = Math.min((maxColumns * CELL.widthPx) / width, (maxRows * CELL.heightPx) / height);
  return {
    columns: Math.max(1, Math.min(maxColumns, Math.ceil((width * scale) / CELL.widthPx))),
    rows: Math.max(1, Math.min(maxRows, Math.ceil((height * scale) / CELL.heightPx))),
  };
}

/**
 * The kitty graphics sequence (PNG data, `C=1`: the cursor stays), in pi's 4096-byte chunks. `id` (`i=`)
 * names the image, so writing it again replaces its old placement instead of adding one.
 */
export function kittySequence(data: string, columns: number, rows: number, id?: number): string {
  const head = `a=T,f=100,q=2,C=1,c=${columns},r=${rows}${id !== undefined ? `,i=${id}` : ""}`;
  const size = 4096;
  if (data.length <= size) return `\x1b_G${head};${data}\x1b\\`;
  let out = "";
  for (let offset = 0; offset < data.length; offset += size) {
    const last = offset + size >= data.length;
    const params = offset === 0 ? `${head},m=1` : last ? "m=0" : "m=1";
    out += `\x1b_G${params};${data.slice(offset, offset + size)}\x1b\\`;
  }
  return out;
}

/** iTerm2's inline image sequence, `columns` cells wide. */
export function iterm2Sequence(data: string, columns: number): string {
  return `\x1b]1337;File=inline=1;size=${Buffer.byteLength(data, "base64")};width=${columns};height=auto:${data}\x07`;
}

/**
 * The rows of one image `width` cells wide (the transcript's indent of one cell before it): inline
 * where the terminal draws images (kitty only takes PNG), else the placeholder in `paint`. `key` tells
 * two equal images of the transcript apart (each gets its own kitty id).
 */
export function imageRows(
  image: ImageBlock,
  width: number,
  paint: (text: string) => string,
  draw: { protocol?: ImageProtocol; key?: string } = {},
): string[] {
  const protocol = draw.protocol !== undefined ? draw.protocol : runProtocol();
  const size = imageSize(image.data, image.mimeType);
  const inline = protocol === "kitty" ? image.mimeType === "image/png" : protocol === "iterm2";
  if (!inline || size === undefined) return [` ${paint(imagePlaceholder(image.mimeType, size))}`];
  const maxColumns = Math.max(1, Math.min(width - 2, options.widthCells));
  const maxRows = Math.max(1, Math.ceil((maxColumns * CELL.widthPx) / CELL.heightPx));
  const { columns, rows } = cellSize(size, maxColumns, maxRows);
  const blank = Array.from({ length: rows - 1 }, () => "");
  if (protocol === "kitty")
    return [` ${kittySequence(image.data, columns, rows, imageId(`${draw.key ?? ""}|${image.data}`))}`, ...blank];
  return [...blank, ` ${rows > 1 ? `\x1b[${rows - 1}A` : ""}${iterm2Sequence(image.data, columns)}`];
}

/** A stable id for an image's text (FNV-1a over its start and a sample of the rest; kitty ids are 1 to 2^32 - 1). */
export function imageId(data: string): number {
  let hash = 0x811c9dc5;
  const step = Math.max(1, Math.floor(data.length / 4096));
  for (let i = 0; i < Math.min(64, data.length); i++) hash = Math.imul(hash ^ data.charCodeAt(i), 0x01000193) >>> 0;
  for (let i = 64; i < data.length; i += step) hash = Math.imul(hash ^ data.charCodeAt(i), 0x01000193) >>> 0;
  hash = Math.imul(hash ^ data.length, 0x01000193) >>> 0;
  return hash === 0 ? 1 : hash;
}

/** The image blocks of message content (a string has none). */
export function imagesOf(content: unknown): ImageBlock[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((b: { type?: string; data?: unknown }) => b.type === "image" && typeof b.data === "string")
    .map((b: { data: string; mimeType?: string }) => ({ data: b.data, mimeType: b.mimeType ?? "image/png" }));
}
