/**
 * The host's schema policy for plugins: config and state are checked against the plugin's TypeBox schemas,
 * with errors that name the field, so a bad `plugins.json` entry tells its author exactly what to fix.
 * The kernel takes these as its `validateConfig` and `checkState` options (hosts/host-kernel.ts).
 */
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** A schema violation at one field (`config.maxLines`, `state.items`). */
export class SchemaError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = "SchemaError";
  }
}

/** Fills defaults into a copy of `raw` and checks it; throws SchemaError naming the first bad field. */
export function validateConfig(schema: TSchema | undefined, raw: unknown): unknown {
  if (schema === undefined) {
    if (raw !== undefined && !(typeof raw === "object" && raw !== null && Object.keys(raw).length === 0)) {
      throw new SchemaError("config", "this plugin takes no config; remove the field");
    }
    return {};
  }
  const value = Value.Default(schema, structuredClone(raw ?? {}));
  if (Value.Check(schema, value)) return value;
  throw firstError(schema, value, "config");
}

/** Checks a value against a schema without defaults (state must already be whole). */
export function checkState(schema: TSchema, value: unknown): void {
  if (Value.Check(schema, value)) return;
  throw firstError(schema, value, "state");
}

function firstError(schema: TSchema, value: unknown, root: string): SchemaError {
  const first = Value.Errors(schema, value).First();
  const path = first?.path ? first.path.split("/").filter(Boolean).join(".") : "";
  return new SchemaError(path ? `${root}.${path}` : root, first?.message ?? "invalid");
}
