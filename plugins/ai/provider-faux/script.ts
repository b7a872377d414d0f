/**
 * Faux scripts as data: the TypeBox schema of a scripted turn (used for the plugin's `responses`
 * config, which the kernel validates before the plugin starts) and the loader of a JSON script file
 * (`[turn, ...]` or `{"responses": [turn, ...]}`), whose problems name the file and the field.
 */
import { readFile } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FauxTurn } from "./faux.js";

const TextBlock = Type.Object({ type: Type.Literal("text"), text: Type.String() }, { additionalProperties: false });
const ThinkingBlock = Type.Object(
  {
    type: Type.Literal("thinking"),
    thinking: Type.String(),
    thinkingSignature: Type.Optional(Type.String()),
    redacted: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ToolCallBlock = Type.Object(
  {
    type: Type.Literal("toolCall"),
    id: Type.Optional(Type.String({ minLength: 1 })),
    name: Type.String({ minLength: 1 }),
    arguments: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);
const TokenCount = Type.Integer({ minimum: 0 });

/** One scripted turn, as JSON. */
export const FauxTurnSchema = Type.Object(
  {
    content: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.Union([TextBlock, ThinkingBlock, ToolCallBlock]))]),
    ),
    stopReason: Type.Optional(
      Type.Union([
        Type.Literal("stop"),
        Type.Literal("length"),
        Type.Literal("toolUse"),
        Type.Literal("error"),
        Type.Literal("aborted"),
      ]),
    ),
    errorMessage: Type.Optional(Type.String()),
    usage: Type.Optional(
      Type.Object(
        {
          input: Type.Optional(TokenCount),
          output: Type.Optional(TokenCount),
          cacheRead: Type.Optional(TokenCount),
          cacheWrite: Type.Optional(TokenCount),
        },
        { additionalProperties: false },
      ),
    ),
    responseId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export type FauxTurnJson = Static<typeof FauxTurnSchema>;

/** Reads a JSON script file. Throws one line naming the file and the first bad field. */
export async function loadScriptFile(path: string): Promise<FauxTurn[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(
      `faux script ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`faux script ${path}: not valid JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(data) ? data : (data as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(list)) throw new Error(`faux script ${path}: must be an array of turns or {"responses": [...]}`);
  list.forEach((turn, index) => {
    if (Value.Check(FauxTurnSchema, turn)) return;
    const first = Value.Errors(FauxTurnSchema, turn).First();
    const field = (first?.path ?? "")
      .split("/")
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
      .join("");
    throw new Error(`faux script ${path}: responses[${index}]${field}: ${first?.message ?? "invalid"}`);
  });
  return list as FauxTurn[];
}
