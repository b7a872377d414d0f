/**
 * Where a provider's API key comes from, in pi's order: the `--api-key` flag, then auth.json, then the
 * environment, then a custom provider's `apiKey` in models.json, then (Bedrock, Vertex) credentials the
 * platform supplies, handed out as the AMBIENT_CREDENTIALS placeholder. `keySource` answers "which one
 * would be used" without running any `!command`, so listing models stays fast and side-effect free.
 */
import { join } from "node:path";
import { AMBIENT_CREDENTIALS, isCommandValue, resolveConfigSpec, type AuthStore, type ConfigSpawner } from "pi-host";
import { AMBIENT_HINTS, ambientSource } from "./ambient.js";
import { AuthFile } from "./auth-file.js";
import { ENV_KEYS, envKey } from "./env-keys.js";
import { ModelsFileKeys } from "./models-keys.js";
import { OAUTH_FLOWS } from "./oauth/flows.js";
import { OAuthStore } from "./oauth-store.js";

/** Where the key for a provider would come from. `label` is what `pi --list-models` prints. */
export type KeySource =
  | { kind: "flag"; label: "flag" }
  | { kind: "auth.json"; label: "auth.json"; file: string; oauth: boolean }
  | { kind: "env"; label: string; variable: string }
  | { kind: "models.json"; label: "models.json"; file: string }
  | { kind: "ambient"; label: string }
  | { kind: "none"; label: "none" };

/**
 * AuthStore plus `keySource`. The AuthContract has no member for the source yet, so hosts that show it
 * check for this method on the provider.
 */
export interface AuthStoreWithSources extends AuthStore {
  keySource(provider: string): Promise<KeySource>;
}

/** What the store is built from. */
export interface AuthStoreOptions {
  agentDir: string;
  /** The `--api-key` flag's value. */
  flagKey?: string;
  /** The provider the flag's key is for; when unset, it is for whichever provider the run uses. */
  flagProvider?: string;
  env: NodeJS.ProcessEnv;
  spawn: ConfigSpawner;
}

/** The auth plugin's implementation of AuthContract. */
export class ApiKeyStore implements AuthStoreWithSources {
  private files: { auth: AuthFile; models: ModelsFileKeys } | undefined;
  /** Outputs of auth.json `!command`s, kept for the life of this generation (as pi keeps them per process). */
  private readonly commandCache = new Map<string, Promise<string>>();
  private writes: Promise<void> = Promise.resolve();
  /** Account sign-ins in the same auth.json; also provided as AccountAuthContract. */
  readonly oauth: OAuthStore = new OAuthStore(
    () => this.authFile,
    () => this.options.env,
  );

  /** `options` may answer through getters: the agent folder and flag are read at the first call, not at setup. */
  constructor(private readonly options: AuthStoreOptions) {}

  private get authFile(): AuthFile {
    return this.openFiles().auth;
  }

  private get modelsKeys(): ModelsFileKeys {
    return this.openFiles().models;
  }

  private openFiles(): { auth: AuthFile; models: ModelsFileKeys } {
    const { agentDir } = this.options;
    this.files ??= {
      auth: new AuthFile(join(agentDir, "auth.json")),
      models: new ModelsFileKeys(join(agentDir, "models.json")),
    };
    return this.files;
  }

  async apiKey(provider: string): Promise<string | undefined> {
    const source = await this.keySource(provider);
    switch (source.kind) {
      case "flag":
        return this.options.flagKey;
      case "auth.json": {
        if ((await this.authFile.read())[provider]!.type === "oauth")
          return (await this.oauth.requestAuth(provider))?.apiKey;
        const spec = (await this.authFile.read())[provider]!.key!;
        const what = `the key for "${provider}" in ${source.file}`;
        if (!isCommandValue(spec)) return resolveConfigSpec(spec, what, this.options.env, this.options.spawn);
        let pending = this.commandCache.get(spec);
        if (pending === undefined) {
          pending = resolveConfigSpec(spec, what, this.options.env, this.options.spawn);
          this.commandCache.set(spec, pending);
          pending.catch(() => this.commandCache.delete(spec));
        }
        return pending;
      }
      case "env":
        return this.options.env[source.variable];
      case "models.json": {
        const spec = (await this.modelsKeys.spec(provider))!;
        return resolveConfigSpec(
          spec,
          `the apiKey of provider "${provider}" in ${source.file}`,
          this.options.env,
          this.options.spawn,
        );
      }
      case "ambient":
        return AMBIENT_CREDENTIALS;
      case "none":
        return undefined;
    }
  }

  async keySource(provider: string): Promise<KeySource> {
    const { flagKey, flagProvider, env } = this.options;
    if (flagKey !== undefined && flagKey !== "" && (flagProvider === undefined || flagProvider === provider))
      return { kind: "flag", label: "flag" };
    const entry = (await this.authFile.read())[provider];
    if (entry?.type === "api_key" || entry?.type === "oauth")
      return { kind: "auth.json", label: "auth.json", file: this.authFile.path, oauth: entry.type === "oauth" };
    const fromEnv = envKey(provider, env);
    if (fromEnv !== undefined) return { kind: "env", label: `env ${fromEnv.variable}`, variable: fromEnv.variable };
    if ((await this.modelsKeys.spec(provider)) !== undefined)
      return { kind: "models.json", label: "models.json", file: this.modelsKeys.path };
    const ambient = ambientSource(provider, env);
    if (ambient !== undefined) return { kind: "ambient", label: ambient };
    return { kind: "none", label: "none" };
  }

  missingKeyMessage(provider: string): string {
    const variables = ENV_KEYS[provider];
    const entry = `{"${provider}": {"type": "api_key", "key": "..."}} to ${this.authFile.path}`;
    const ambient = AMBIENT_HINTS[provider];
    // Where an account sign-in exists, it is the other way in.
    const login = OAUTH_FLOWS.has(provider) ? `run "pi auth login ${provider}", ` : "";
    if (variables !== undefined && ambient !== undefined) {
      return `no credentials for "${provider}": ${ambient}, or set ${variables.join(" or ")}, ${login}add ${entry}, or pass --api-key`;
    }
    if (variables !== undefined) {
      return `no API key for "${provider}": set ${variables.join(" or ")}, ${login}add ${entry}, or pass --api-key`;
    }
    return `no API key for "${provider}": ${login}add ${entry}, set "apiKey" for it in ${this.modelsKeys.path}, or pass --api-key`;
  }

  setApiKey(provider: string, key: string): Promise<void> {
    if (provider.trim() === "") return Promise.reject(new Error("setApiKey: the provider name is empty"));
    if (key.trim() === "") return Promise.reject(new Error(`setApiKey: the key for "${provider}" is empty`));
    // One write at a time, so two quick saves cannot lose each other's entry.
    const write = this.writes.then(() => this.authFile.setApiKey(provider, key));
    this.writes = write.catch(() => undefined);
    return write;
  }
}
