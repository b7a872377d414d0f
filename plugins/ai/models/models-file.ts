/**
 * The `models.json` format, as pi writes it: `{ "providers": { "<name>": { baseUrl, api, apiKey, headers,
 * authHeader, compat, models: [...], modelOverrides: {...} } } }`. Parsing checks the file against a
 * TypeBox schema and pi's own rules, and every problem becomes one line naming the file and the field,
 * so the user knows exactly what to fix. Unknown fields are allowed, as pi allows them.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

const Cost = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
});
const PartialCost = Type.Partial(Cost);
const InputKinds = Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]));
const Headers = Type.Record(Type.String(), Type.String());
const Compat = Type.Record(Type.String(), Type.Unknown());
const TokenCount = Type.Integer({ exclusiveMinimum: 0 });

const ModelDefinition = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.Optional(Type.String({ minLength: 1 })),
  api: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  reasoning: Type.Optional(Type.Boolean()),
  input: Type.Optional(InputKinds),
  cost: Type.Optional(Cost),
  contextWindow: Type.Optional(TokenCount),
  maxTokens: Type.Optional(TokenCount),
  headers: Type.Optional(Headers),
  compat: Type.Optional(Compat),
});

const ModelOverride = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  reasoning: Type.Optional(Type.Boolean()),
  input: Type.Optional(InputKinds),
  cost: Type.Optional(PartialCost),
  contextWindow: Type.Optional(TokenCount),
  maxTokens: Type.Optional(TokenCount),
  headers: Type.Optional(Headers),
  compat: Type.Optional(Compat),
});

/** One provider entry of models.json. Also the shape of the plugin's inline `providers` config. */
export const ProviderConfigSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  apiKey: Type.Optional(Type.String({ minLength: 1 })),
  api: Type.Optional(Type.String({ minLength: 1 })),
  headers: Type.Optional(Headers),
  authHeader: Type.Optional(Type.Boolean()),
  compat: Type.Optional(Compat),
  models: Type.Optional(Type.Array(ModelDefinition)),
  modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverride)),
});

const ModelsFileSchema = Type.Object({ providers: Type.Record(Type.String(), ProviderConfigSchema) });

export type ProviderConfig = Static<typeof ProviderConfigSchema>;
export type ModelDefinition = Static<typeof ModelDefinition>;
export type ModelOverride = Static<typeof ModelOverride>;
export type ProvidersConfig = Record<string, ProviderConfig>;

/** The wire protocols models.json may name without a plugin saying otherwise. */
export const KNOWN_APIS = [
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
] as const;

/** A models.json problem: one line, `<file>: <field>: <what is wrong>`. */
export class ModelsFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    readonly reason: string,
  ) {
    super(`${file}: ${field ? `${field}: ` : ""}${reason}`);
    this.name = "ModelsFileError";
  }
}

/** What the semantic checks need to know about the built-in catalog and the running plugins. */
export interface ParseRules {
  /** Providers the built-in catalog knows; they may omit baseUrl, api and apiKey. */
  builtinProviders: ReadonlySet<string>;
  /** Every api name a model may use (the known four plus those of installed provider plugins). */
  apis: readonly string[];
  /** A new provider's models need no `apiKey` (providers registered at run time: the user may sign in later). */
  keyOptional?: boolean;
}

/** Parses models.json text. Throws ModelsFileError naming `file` and the first bad field. */
export function parseModelsFile(file: string, text: string, rules: ParseRules): ProvidersConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ModelsFileError(file, undefined, `not valid JSON (${(error as Error).message}); fix the file`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new ModelsFileError(file, undefined, `must be an object like {"providers": {...}}`);
  }
  if ((data as Record<string, unknown>).providers === undefined)
    throw new ModelsFileError(file, "providers", "required: an object of providers by name");
  return checkProviders(file, (data as Record<string, unknown>).providers, rules, "providers");
}

/** Checks a providers object (from models.json or plugin config); `root` prefixes field names. */
export function checkProviders(file: string, providers: unknown, rules: ParseRules, root: string): ProvidersConfig {
  const wrapped = { providers };
  if (!Value.Check(ModelsFileSchema, wrapped)) {
    const first = Value.Errors(ModelsFileSchema, wrapped).First();
    const field = first ? fieldName(first.path, root) : root;
    throw new ModelsFileError(file, field, first ? describe(first.message, first.value) : "invalid");
  }
  for (const [name, provider] of Object.entries(providers as ProvidersConfig))
    checkProvider(file, `${root}.${name}`, name, provider, rules);
  return providers as ProvidersConfig;
}

function checkProvider(file: string, at: string, name: string, provider: ProviderConfig, rules: ParseRules): void {
  const builtin = rules.builtinProviders.has(name);
  const models = provider.models ?? [];
  const overrides = Object.keys(provider.modelOverrides ?? {}).length > 0;
  if (models.length === 0 && !provider.baseUrl && !provider.headers && !provider.compat && !overrides) {
    throw new ModelsFileError(
      file,
      at,
      `says nothing; give "models", or "baseUrl", "headers", "compat" or "modelOverrides" for a built-in provider`,
    );
  }
  if (provider.api !== undefined) checkApi(file, `${at}.api`, provider.api, rules);
  if (models.length > 0 && !builtin) {
    if (!provider.baseUrl)
      throw new ModelsFileError(file, `${at}.baseUrl`, `required when a new provider defines models`);
    if (!provider.apiKey && rules.keyOptional !== true)
      throw new ModelsFileError(
        file,
        `${at}.apiKey`,
        `required when a new provider defines models (any value for servers without keys, e.g. "ollama")`,
      );
  }
  const seen = new Set<string>();
  models.forEach((model, index) => {
    const modelAt = `${at}.models[${index}]`;
    if (seen.has(model.id))
      throw new ModelsFileError(file, `${modelAt}.id`, `"${model.id}" appears twice in this provider`);
    seen.add(model.id);
    if (model.api !== undefined) checkApi(file, `${modelAt}.api`, model.api, rules);
    else if (provider.api === undefined && !builtin)
      throw new ModelsFileError(
        file,
        `${modelAt}.api`,
        `no api: set "api" on the provider or the model (${rules.apis.join(", ")})`,
      );
  });
}

function checkApi(file: string, field: string, api: string, rules: ParseRules): void {
  if (!rules.apis.includes(api))
    throw new ModelsFileError(file, field, `unknown api "${api}"; use one of ${rules.apis.join(", ")}`);
}

/** `/providers/ollama/models/0/contextWindow` → `providers.ollama.models[0].contextWindow`. */
function fieldName(pointer: string, root: string): string {
  const parts = pointer
    .split("/")
    .slice(2)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = root;
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
  return out;
}

function describe(message: string, value: unknown): string {
  const got = value === undefined ? "nothing" : JSON.stringify(value);
  return `${message.replace(/^Expected/, "expected")}, got ${got !== undefined && got.length > 40 ? `${got.slice(0, 37)}...` : got}`;
}
