/**
 * Why Gemini stopped, when it was not a normal end. STOP and MAX_TOKENS are normal (stop / length);
 * every other reason means the answer was withheld or broken, and the user needs to know which.
 */

const EXPLANATIONS: Record<string, string> = {
  SAFETY: "the answer was blocked by Gemini's safety filters",
  RECITATION: "the answer was blocked for reciting copyrighted material",
  LANGUAGE: "the answer was in a language Gemini does not support",
  BLOCKLIST: "the answer contained a term from a blocklist",
  PROHIBITED_CONTENT: "the answer was blocked as prohibited content",
  SPII: "the answer was blocked for containing sensitive personal information",
  MALFORMED_FUNCTION_CALL: "Gemini produced a function call it could not parse",
  UNEXPECTED_TOOL_CALL: "Gemini called a tool although tools were not enabled",
  TOO_MANY_TOOL_CALLS: "Gemini made more tool calls than allowed",
  IMAGE_SAFETY: "a generated image was blocked by Gemini's safety filters",
  IMAGE_PROHIBITED_CONTENT: "a generated image was blocked as prohibited content",
  IMAGE_RECITATION: "a generated image was blocked for recitation",
  IMAGE_OTHER: "image generation stopped for an unspecified reason",
  NO_IMAGE: "Gemini was expected to produce an image and did not",
  OTHER: "Gemini stopped for an unspecified reason",
  FINISH_REASON_UNSPECIFIED: "Gemini stopped without saying why",
};

/** One line describing an abnormal end, or undefined when the turn ended normally. */
export function finishProblem(
  finishReason: string | undefined,
  finishMessage: string | undefined,
  blockReason: string | undefined,
): string | undefined {
  if (blockReason !== undefined && finishReason === undefined) return `Gemini refused the prompt (${blockReason})`;
  if (finishReason === undefined) return "Gemini's stream ended without a finish reason; the answer may be cut off";
  if (finishReason === "STOP" || finishReason === "MAX_TOKENS") return undefined;
  const explanation = EXPLANATIONS[finishReason] ?? "Gemini stopped early";
  return `${explanation} (${finishReason})${finishMessage ? `: ${finishMessage}` : ""}`;
}
