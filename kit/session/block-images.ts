/**
 * pi 1.6.0's `images.blockImages`: with it on, no image reaches a model. Each image block of a user
 * message or a tool result becomes pi's text "Image reading is disabled." (one for a run of them), so
 * the model learns an image was there; the session keeps the images.
 */
import type { Message } from "../../contracts/ai/index.js";

/** pi's text in place of a blocked image. */
export const IMAGE_BLOCKED_TEXT = "Image reading is disabled.";

/** The messages with every image of user messages and tool results replaced by pi's text. */
export function withoutImages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== "user" && message.role !== "toolResult") return message;
    const content = message.content;
    if (!Array.isArray(content) || !content.some((block) => block.type === "image")) return message;
    const blocks: Array<(typeof content)[number]> = [];
    for (const block of content) {
      const next = block.type === "image" ? { type: "text" as const, text: IMAGE_BLOCKED_TEXT } : block;
      const previous = blocks.at(-1);
      const repeated =
        next.type === "text" &&
        next.text === IMAGE_BLOCKED_TEXT &&
        previous?.type === "text" &&
        previous.text === IMAGE_BLOCKED_TEXT;
      if (!repeated) blocks.push(next);
    }
    return { ...message, content: blocks } as Message;
  });
}
