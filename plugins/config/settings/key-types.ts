/**
 * The JSON type of each top-level settings key whose type pi's docs (settings.md) fix, so a wrong-typed
 * value (`"defaultProvider": 5`) is refused with one line naming the file, the key and both types,
 * instead of being ignored or breaking whichever plugin reads it later. Keys not listed, and `null`
 * (meaning "unset"), are not checked.
 */

/** A JSON type as a user would name it. */
export type JsonTypeName = "string" | "boolean" | "number" | "array" | "object";

/** Top-level keys and the type pi's docs give them. */
export const SETTING_KEY_TYPES: Readonly<Record<string, JsonTypeName>> = {
  defaultProvider: "string",
  defaultModel: "string",
  defaultThinkingLevel: "string",
  theme: "string",
  shellPath: "string",
  shellCommandPrefix: "string",
  sessionDir: "string",
  externalEditor: "string",
  steeringMode: "string",
  followUpMode: "string",
  doubleEscapeAction: "string",
  treeFilterMode: "string",
  transport: "string",
  httpProxy: "string",
  hideThinkingBlock: "boolean",
  enableSkillCommands: "boolean",
  showHardwareCursor: "boolean",
  collapseChangelog: "boolean",
  editorPaddingX: "number",
  autocompleteMaxVisible: "number",
  enabledModels: "array",
  defaultTools: "array",
  npmCommand: "array",
  packages: "array",
  extensions: "array",
  skills: "array",
  prompts: "array",
  themes: "array",
  compaction: "object",
  branchSummary: "object",
  retry: "object",
  terminal: "object",
  images: "object",
  markdown: "object",
  thinkingBudgets: "object",
  modelThinkingLevels: "object",
};

/** The JSON type name of a parsed value. */
export function jsonTypeName(value: unknown): JsonTypeName | "null" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "string" || type === "boolean" || type === "number" ? type : "object";
}

/** The first key of `settings` whose value has the wrong type, as a reason line; undefined when all fit. */
export function findWrongKeyType(settings: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(settings)) {
    const expected = SETTING_KEY_TYPES[key];
    if (expected === undefined || value === null) continue;
    const actual = jsonTypeName(value);
    if (actual === expected) continue;
    const shown = JSON.stringify(value);
    const sample = shown.length > 40 ? `${shown.slice(0, 37)}...` : shown;
    return `"${key}" must be ${expected === "array" || expected === "object" ? "an" : "a"} ${expected}, got ${actual === "array" || actual === "object" ? "an" : "a"} ${actual} (${sample}); fix or remove it`;
  }
  return undefined;
}
