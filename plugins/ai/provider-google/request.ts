/**
 * The request body for one Gemini call, as the SDK takes it (`{ model, contents, config }`). Pure: the
 * same history and options always give the same request, which is what `onPayload` hooks and the
 * request-body tests see.
 */
import type { GenerateContentConfig, GenerateContentParameters, Tool } from "@google/genai";
import { idRule, prepareHistory, type Context, type Model, type StreamOptions, type ToolSpec } from "pi-host";
import { toGeminiContents } from "./history.js";
import { thinkingConfigFor } from "./thinking.js";

/** Tool-call ids as models behind this API accept them (the strictest family, Claude: `[A-Za-z0-9_-]`, 64). */
export const GOOGLE_TOOL_CALL_IDS = idRule(/^[a-zA-Z0-9_-]+$/, 64);

/** Builds the SDK parameters for streaming `context` to `model`. */
export function buildRequest(model: Model, context: Context, options: StreamOptions): GenerateContentParameters {
  const history = prepareHistory(context.messages, model, GOOGLE_TOOL_CALL_IDS);
  const config: GenerateContentConfig = {};
  if (context.systemPrompt) config.systemInstruction = context.systemPrompt;
  if (context.tools && context.tools.length > 0) config.tools = toGeminiTools(context.tools);
  const thinkingConfig = thinkingConfigFor(model, options.reasoning, options.thinkingBudgets);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
  if (options.temperature !== undefined) config.temperature = options.temperature;
  return { model: model.id, contents: toGeminiContents(history, model), config };
}

/** Tools as function declarations; TypeBox schemas are JSON Schema, which Gemini takes as is. */
function toGeminiTools(tools: readonly ToolSpec[]): Tool[] {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    },
  ];
}
