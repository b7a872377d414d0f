/**
 * An ACP prompt (a list of content blocks) as what `AgentSession.prompt` takes: one text and the images.
 * Embedded resources become `<file name="...">` sections, the way the CLI inlines `@file` arguments, so the
 * model reads editor context exactly as it reads files given on the command line; resource links become
 * a line naming the file, which the model can open with its tools.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageContent } from "pi-host";

/** What the session is prompted with. */
export interface PromptInput {
  text: string;
  images: ImageContent[];
}

/** Thrown for a block this agent did not advertise (audio); the connection answers with invalid params. */
export class UnsupportedContentError extends Error {}

/** Converts the blocks in order; text blocks join with blank lines, context sections follow where they stand. */
export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  const parts: string[] = [];
  const images: ImageContent[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "resource_link":
        parts.push(`Referenced file: ${pathOrUri(block.uri)}`);
        break;
      case "resource": {
        const resource = block.resource;
        const name = pathOrUri(resource.uri);
        if ("text" in resource) parts.push(`<file name="${name}">\n${resource.text}\n</file>`);
        else if (resource.mimeType?.startsWith("image/")) {
          images.push({ type: "image", data: resource.blob, mimeType: resource.mimeType });
          parts.push(`<file name="${name}"></file>`);
        } else
          parts.push(`<file name="${name}">(binary content, ${resource.mimeType ?? "unknown type"}, not shown)</file>`);
        break;
      }
      case "audio":
        throw new UnsupportedContentError("audio prompts are not supported; send text, images or resources");
      default:
        throw new UnsupportedContentError(`unknown content block type "${(block as { type?: unknown }).type}"`);
    }
  }
  return { text: parts.join("\n\n"), images };
}

/** A `file://` URI as its absolute path; any other URI as it is. */
export function pathOrUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
