import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthContract, type AuthStore } from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import authPlugin from "../../../plugins/ai/auth/index.js";
import type { AuthStoreWithSources } from "../../../plugins/ai/auth/auth-store.js";

const ENV_NAMES = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "MY_TEST_KEY_VAR",
];

describe("auth plugin", () => {
  let agentDir: string;
  let kernels: Kernel[];
  let saved: Record<string, string | undefined>;

  /** Boots the auth plugin with `config` (agentDir filled in) and returns its handle. */
  async function bootAuth(config: Record<string, unknown> = {}): Promise<Handle<AuthStore>> {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      {
        id: "auth",
        source: { kind: "inline", label: "auth", definition: authPlugin },
        config: { agentDir, ...config },
      },
    ]);
    expect(boot.configErrors).toEqual([]);
    expect(boot.errors).toEqual([]);
    return kernel.use(AuthContract);
  }
  const source = async (auth: Handle<AuthStore>, provider: string): Promise<string> =>
    (await (auth.peek() as AuthStoreWithSources).keySource(provider)).label;
  const writeAuth = (data: unknown): void =>
    writeFileSync(join(agentDir, "auth.json"), typeof data === "string" ? data : JSON.stringify(data));
  const writeModels = (data: unknown): void => writeFileSync(join(agentDir, "models.json"), JSON.stringify(data));

  beforeEach(() => {
    agentDir = mkdtempSync(join(tmpdir(), "pi-auth-"));
    kernels = [];
    saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));
    for (const name of ENV_NAMES) delete process.env[name];
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("follows pi's precedence: --api-key > auth.json > environment > models.json", async () => {
    writeModels({
      providers: {
        anthropic: { apiKey: "from-models" },
        local: { apiKey: "local-literal", baseUrl: "http://x", api: "openai-completions", models: [{ id: "m" }] },
      },
    });
    const plain = await bootAuth();
    expect(await plain.call("apiKey", "anthropic")).toBe("from-models");
    expect(await source(plain, "anthropic")).toBe("models.json");

    process.env.ANTHROPIC_API_KEY = "from-env";
    expect(await plain.call("apiKey", "anthropic")).toBe("from-env");
    expect(await source(plain, "anthropic")).toBe("env ANTHROPIC_API_KEY");

    writeAuth({ anthropic: { type: "api_key", key: "from-auth-json" } });
    expect(await plain.call("apiKey", "anthropic")).toBe("from-auth-json");
    expect(await source(plain, "anthropic")).toBe("auth.json");

    const flagged = await bootAuth({ apiKey: "from-flag" });
    expect(await flagged.call("apiKey", "anthropic")).toBe("from-flag");
    expect(await source(flagged, "anthropic")).toBe("flag");

    // A flag scoped to one provider leaves the others alone.
    const scoped = await bootAuth({ apiKey: "from-flag", apiKeyProvider: "openai" });
    expect(await scoped.call("apiKey", "openai")).toBe("from-flag");
    expect(await scoped.call("apiKey", "anthropic")).toBe("from-auth-json");
    expect(await source(scoped, "anthropic")).toBe("auth.json");

    expect(await plain.call("apiKey", "local")).toBe("local-literal");
    expect(await plain.call("apiKey", "groq")).toBeUndefined();
    expect(await source(plain, "groq")).toBe("none");
  });

  it("reads GEMINI_API_KEY, then GOOGLE_API_KEY, for google", async () => {
    const auth = await bootAuth();
    process.env.GOOGLE_API_KEY = "google-key";
    expect(await auth.call("apiKey", "google")).toBe("google-key");
    expect(await source(auth, "google")).toBe("env GOOGLE_API_KEY");
    process.env.GEMINI_API_KEY = "gemini-key";
    expect(await auth.call("apiKey", "google")).toBe("gemini-key");
    expect(await source(auth, "google")).toBe("env GEMINI_API_KEY");
  });

  it("resolves values that name an environment variable or run a !command", async () => {
    const counter = join(agentDir, "runs");
    process.env.MY_TEST_KEY_VAR = "via-variable";
    writeAuth({
      anthropic: { type: "api_key", key: "MY_TEST_KEY_VAR" },
      openai: { type: "api_key", key: `!echo run >> ${counter}; printf '  sk-from-command \\n'` },
      groq: { type: "api_key", key: "gsk-literal" },
    });
    writeModels({
      providers: {
        local: {
          apiKey: "!echo local-from-command",
          baseUrl: "http://x",
          api: "openai-completions",
          models: [{ id: "m" }],
        },
      },
    });
    const auth = await bootAuth();
    expect(await auth.call("apiKey", "anthropic")).toBe("via-variable");
    expect(await source(auth, "openai")).toBe("auth.json");
    expect(existsSync(counter)).toBe(false); // keySource runs no command
    expect(await auth.call("apiKey", "openai")).toBe("sk-from-command");
    expect(await auth.call("apiKey", "openai")).toBe("sk-from-command");
    expect(readFileSync(counter, "utf8")).toBe("run\n"); // cached for the generation, like pi caches per process
    expect(await auth.call("apiKey", "groq")).toBe("gsk-literal");
    expect(await auth.call("apiKey", "local")).toBe("local-from-command");
  });

  it("resolves models.json keys in pi 1.6's syntax: $VAR, ${VAR}, $$ and $!, and !command", async () => {
    process.env.MY_TEST_KEY_VAR = "secret";
    const provider = (apiKey: string) => ({
      apiKey,
      baseUrl: "http://x",
      api: "openai-completions",
      models: [{ id: "m" }],
    });
    writeModels({
      providers: {
        plain: provider("$MY_TEST_KEY_VAR"),
        braced: provider("sk-${MY_TEST_KEY_VAR}-end"),
        escaped: provider("$$MY_TEST_KEY_VAR and $!x"),
        command: provider("!printf '%s' \"cmd-$MY_TEST_KEY_VAR\""),
        literal: provider("sk-literal"),
        unset: provider("${NO_SUCH_VARIABLE_FOR_PI_TESTS}"),
      },
    });
    const auth = await bootAuth();
    expect(await auth.call("apiKey", "plain")).toBe("secret");
    expect(await auth.call("apiKey", "braced")).toBe("sk-secret-end");
    expect(await auth.call("apiKey", "escaped")).toBe("$MY_TEST_KEY_VAR and !x");
    expect(await auth.call("apiKey", "command")).toBe("cmd-secret");
    expect(await auth.call("apiKey", "literal")).toBe("sk-literal");
    // Never the literal text: an unset variable is one line saying which.
    await expect(auth.call("apiKey", "unset")).rejects.toThrow(
      `the apiKey of provider "unset" in ${join(agentDir, "models.json")} uses $NO_SUCH_VARIABLE_FOR_PI_TESTS, which is not set in the environment`,
    );
  });

  it("a failing !command is one clear line naming the provider, the file and the command", async () => {
    writeAuth({
      anthropic: { type: "api_key", key: "!echo 'vault is locked' >&2; exit 4" },
      openai: { type: "api_key", key: "!true" },
    });
    const auth = await bootAuth();
    const file = join(agentDir, "auth.json");
    await expect(auth.call("apiKey", "anthropic")).rejects.toThrow(
      `the command for the key for "anthropic" in ${file} failed (exit code 4: vault is locked): !echo 'vault is locked' >&2; exit 4`,
    );
    await expect(auth.call("apiKey", "openai")).rejects.toThrow(
      `the command for the key for "openai" in ${file} failed (it printed nothing): !true`,
    );
  });

  it("a malformed auth.json is one line naming the file and the entry; setup never reads it", async () => {
    writeAuth("{ anthropic: ");
    const auth = await bootAuth();
    const file = join(agentDir, "auth.json");
    await expect(auth.call("apiKey", "anthropic")).rejects.toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON`),
    );
    writeAuth({ anthropic: { type: "api_key", key: 42 } });
    await expect(auth.call("apiKey", "anthropic")).rejects.toThrow(
      `${file}: anthropic.key: must be a non-empty string`,
    );
    writeAuth({ anthropic: "sk" });
    await expect(auth.call("apiKey", "anthropic")).rejects.toThrow(
      `${file}: anthropic: must be an object with a "type"`,
    );
  });

  it("auth.json that is a folder is one line naming its path, for apiKey and keySource", async () => {
    mkdirSync(join(agentDir, "auth.json"));
    const auth = await bootAuth();
    const file = join(agentDir, "auth.json");
    await expect(auth.call("apiKey", "anthropic")).rejects.toThrow(`${file}: is a folder, not a file`);
    await expect(source(auth, "openai")).rejects.toThrow(`${file}: is a folder, not a file`);
  });

  it("models.json that is a folder names its path when a key is looked up there", async () => {
    const file = join(agentDir, "models.json");
    mkdirSync(file);
    const auth = await bootAuth();
    await expect(auth.call("apiKey", "local")).rejects.toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot be read \\(EISDIR`),
    );
  });

  it("setApiKey writes auth.json atomically with mode 0600, keeping other entries", async () => {
    const nested = join(agentDir, "fresh", "agent");
    const auth = await bootAuth({ agentDir: nested });
    await auth.call("setApiKey", "anthropic", "sk-ant-1");
    const file = join(nested, "auth.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ anthropic: { type: "api_key", key: "sk-ant-1" } });
    expect(await auth.call("apiKey", "anthropic")).toBe("sk-ant-1");

    // An existing, too-open file with an OAuth entry: the entry survives, the mode tightens.
    const oauth = { type: "oauth", access: "a", refresh: "r", expires: 1 };
    writeFileSync(file, JSON.stringify({ "github-copilot": oauth, anthropic: { type: "api_key", key: "old" } }));
    chmodSync(file, 0o644);
    await Promise.all([auth.call("setApiKey", "openai", "sk-openai"), auth.call("setApiKey", "google", "g-key")]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      "github-copilot": oauth,
      anthropic: { type: "api_key", key: "old" },
      openai: { type: "api_key", key: "sk-openai" },
      google: { type: "api_key", key: "g-key" },
    });
    expect(readdirSync(nested)).toEqual(["auth.json"]); // no temp files left behind
  });

  it("setApiKey refuses to overwrite a file it cannot parse, and refuses empty input", async () => {
    const auth = await bootAuth();
    writeAuth("{ broken");
    await expect(auth.call("setApiKey", "anthropic", "sk")).rejects.toThrow("not valid JSON");
    expect(readFileSync(join(agentDir, "auth.json"), "utf8")).toBe("{ broken");
    await expect(auth.call("setApiKey", "anthropic", " ")).rejects.toThrow(
      `setApiKey: the key for "anthropic" is empty`,
    );
  });

  it("missingKeyMessage is one line naming the environment variable and auth.json", async () => {
    const auth = await bootAuth();
    const file = join(agentDir, "auth.json");
    expect(auth.call("missingKeyMessage", "anthropic")).toBe(
      `no API key for "anthropic": set ANTHROPIC_API_KEY, run "pi auth login anthropic", add {"anthropic": {"type": "api_key", "key": "..."}} to ${file}, or pass --api-key`,
    );
    expect(auth.call("missingKeyMessage", "google")).toContain("set GEMINI_API_KEY or GOOGLE_API_KEY");
    const custom = auth.call("missingKeyMessage", "my-proxy");
    expect(custom).toContain(`set "apiKey" for it in ${join(agentDir, "models.json")}`);
    expect(custom).not.toContain("\n");
  });
});
