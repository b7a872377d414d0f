/**
 * The conversation in Gemini's shape: `contents` of role "user" / "model", each a list of parts.
 * Runs on a history that `prepareHistory` has already made valid for the target model, so foreign
 * thinking is plain text and foreign signatures are gone; what signatures remain belong to this model
 * and are replayed on the part they came with.
 */
import type { Content, FunctionResponse, Part } from "@google/genai";
import type { AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage } from "pi-host";

/**
 * Google's documented stand-in signature for function calls that Gemini 3 did not sign itself (calls
 * written by another model); without one, Gemini 3 refuses the history.
 */
export const UNSIGNED_CALL_SIGNATURE = "skip_thought_signature_validator";

/** Converts the prepared history into Gemini contents. */
export function toGeminiContents(messages: readonly Message[], model: Model): Content[] {
  const contents: Content[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const parts = typeof message.content === "string" ? [{ text: message.content }] : message.content.map(userPart);
      if (parts.length > 0) contents.push({ role: "user", parts });
    } else if (message.role === "assistant") {
      const parts = modelParts(message, model);
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else {
      // All results of one assistant turn go back together, in one user content.
      const group: ToolResultMessage[] = [];
      while (i < messages.length && messages[i]!.role === "toolResult") group.push(messages[i++] as ToolResultMessage);
      i--;
      contents.push(...toolResultContents(group, model));
    }
  }
  return contents;
}

function userPart(block: TextContent | ImageContent): Part {
  return block.type === "text" ? { text: block.text } : { inlineData: { mimeType: block.mimeType, data: block.data } };
}

function modelParts(message: AssistantMessage, model: Model): Part[] {
  const parts: Part[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text === "" && !block.textSignature) continue;
      parts.push({ text: block.text, ...(block.textSignature && { thoughtSignature: block.textSignature }) });
    } else if (block.type === "thinking") {
      if (block.thinking === "" && !block.thinkingSignature) continue;
      parts.push({
        thought: true,
        text: block.thinking,
        ...(block.thinkingSignature && { thoughtSignature: block.thinkingSignature }),
      });
    } else {
      parts.push({
        functionCall: { name: block.name, args: block.arguments ?? {}, ...(sendsCallIds(model) && { id: block.id }) },
        ...(block.thoughtSignature && { thoughtSignature: block.thoughtSignature }),
      });
    }
  }
  if (requiresSignedCalls(model)) signFirstCall(parts);
  return parts;
}

/** Gemini 3 validates that the first function call of each model turn carries a thought signature. */
function signFirstCall(parts: Part[]): void {
  const calls = parts.filter((p) => p.functionCall !== undefined);
  if (calls.length > 0 && !calls.some((p) => p.thoughtSignature)) calls[0]!.thoughtSignature = UNSIGNED_CALL_SIGNATURE;
}

function toolResultContents(results: ToolResultMessage[], model: Model): Content[] {
  const nestImages = acceptsImagesInFunctionResponses(model);
  const responses: Part[] = [];
  const looseImages: Part[] = [];
  for (const result of results) {
    const text = result.content
      .filter((b): b is TextContent => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    const images = result.content
      .filter((b): b is ImageContent => b.type === "image")
      .map((b) => ({ inlineData: { mimeType: b.mimeType, data: b.data } }));
    const value = text !== "" ? text : images.length > 0 ? "(see attached image)" : "";
    const response: FunctionResponse = {
      name: result.toolName,
      response: result.isError ? { error: value } : { output: value },
      ...(sendsCallIds(model) && { id: result.toolCallId }),
    };
    if (images.length > 0 && nestImages) response.parts = images;
    else looseImages.push(...images);
    responses.push({ functionResponse: response });
  }
  const contents: Content[] = [{ role: "user", parts: responses }];
  if (looseImages.length > 0)
    contents.push({ role: "user", parts: [{ text: "Images returned by the tool calls above:" }, ...looseImages] });
  return contents;
}

/** Gemini answers function calls by name and order; models of other families behind this API need ids. */
function sendsCallIds(model: Model): boolean {
  return !/^(gemini|gemma)/i.test(model.id);
}

function requiresSignedCalls(model: Model): boolean {
  return /^gemini-3/i.test(model.id);
}

/** Gemini 3 takes images inside a function response; earlier models need them in a user turn. */
function acceptsImagesInFunctionResponses(model: Model): boolean {
  const major = /^gemini-(\d+)/i.exec(model.id)?.[1];
  return major !== undefined && Number(major) >= 3;
}
