import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsContract, type SettingsStore } from "../../../contracts/resources.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import { nodeSettingsFileAccess, type SettingsFileAccess } from "../../../plugins/config/settings/file-access.js";
import settingsPlugin from "../../../plugins/config/settings/index.js";
import { FileSettingsStore } from "../../../plugins/config/settings/settings-store.js";

describe("settings plugin", () => {
  let agentDir: string;
  let cwd: string;
  let kernels: Kernel[];

  async function bootSettings(): Promise<Handle<SettingsStore>> {
    const kernel = new Kernel();
    kernels.push(kernel);
    // The project is trusted, as after `pi trust` (tests/security covers the untrusted case).
    const boot = await kernel.boot([
      hostEnvironmentEntry(cwd, agentDir),
      {
        id: "settings",
        source: { kind: "inline", label: "settings", definition: settingsPlugin },
        config: { agentDir },
      },
    ]);
    expect(boot.configErrors).toEqual([]);
    expect(boot.errors).toEqual([]);
    return kernel.use(SettingsContract);
  }
  const globalFile = (): string => join(agentDir, "settings.json");
  const projectFile = (): string => join(cwd, ".pi", "settings.json");
  const writeJson = (path: string, data: unknown): void => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof data === "string" ? data : JSON.stringify(data, null, 2));
  };
  const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), "pi-settings-"));
    agentDir = join(root, "agent");
    cwd = join(root, "project");
    mkdirSync(agentDir);
    mkdirSync(cwd);
    kernels = [];
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
  });

  it("deep-merges project over global over pi's defaults: objects key by key, arrays and scalars replace", async () => {
    writeJson(globalFile(), {
      theme: "light",
      defaultModel: "claude-sonnet-4-5",
      compaction: { enabled: false, reserveTokens: 1000 },
      retry: { maxRetries: 5, provider: { timeoutMs: 1000, maxRetries: 1 } },
      packages: ["npm:a", "npm:b"],
      myExtension: { keep: true, nested: { a: 1 } },
    });
    writeJson(projectFile(), {
      defaultModel: "gpt-5",
      compaction: { reserveTokens: 8192 },
      retry: { provider: { maxRetries: 2 } },
      packages: ["npm:c"],
      myExtension: { nested: { b: 2 } },
      steeringMode: "all",
    });
    const settings = await (await bootSettings()).call("get", cwd);
    expect(settings.defaultModel).toBe("gpt-5");
    expect(settings.theme).toBe("light");
    expect(settings.compaction).toEqual({ enabled: false, reserveTokens: 8192, keepRecentTokens: 20_000 });
    expect(settings.retry).toEqual({
      enabled: true,
      maxRetries: 5,
      baseDelayMs: 2_000,
      provider: { timeoutMs: 1000, maxRetries: 2, maxRetryDelayMs: 60_000 },
    });
    expect(settings.packages).toEqual(["npm:c"]);
    expect(settings.myExtension).toEqual({ keep: true, nested: { a: 1, b: 2 } });
    expect(settings.steeringMode).toBe("all");
    expect(settings.followUpMode).toBe("one-at-a-time");
  });

  it("fills pi's documented defaults and invents none for keys pi leaves unset", async () => {
    const settings = await (await bootSettings()).call("get", cwd);
    expect(settings).toMatchObject({
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 },
      retry: { enabled: true, maxRetries: 3, baseDelayMs: 2_000, provider: { maxRetryDelayMs: 60_000 } },
      enableSkillCommands: true,
      packages: [],
      skills: [],
      prompts: [],
    });
    for (const unset of [
      "defaultProvider",
      "defaultModel",
      "defaultThinkingLevel",
      "theme",
      "thinkingBudgets",
      "sessionDir",
      "enabledModels",
      "shellPath",
      "npmCommand",
    ]) {
      expect(settings, unset).not.toHaveProperty(unset);
    }
    expect(settings.retry).not.toHaveProperty("provider.timeoutMs");
  });

  it("hands out copies: a caller mutating its settings does not change the next get()", async () => {
    writeJson(globalFile(), { compaction: { reserveTokens: 1 } });
    const handle = await bootSettings();
    const first = await handle.call("get", cwd);
    first.compaction!.reserveTokens = 999;
    (first.packages as unknown[]).push("x");
    const second = await handle.call("get", cwd);
    expect(second.compaction!.reserveTokens).toBe(1);
    expect(second.packages).toEqual([]);
  });

  it("upgrades pi's legacy keys when reading", async () => {
    writeJson(globalFile(), {
      queueMode: "all",
      websockets: true,
      skills: { enableSkillCommands: false, customDirectories: ["~/old-skills"] },
      retry: { maxDelayMs: 5000 },
    });
    const settings = await (await bootSettings()).call("get", cwd);
    expect(settings.steeringMode).toBe("all");
    expect(settings).not.toHaveProperty("queueMode");
    expect(settings.transport).toBe("websocket");
    expect(settings.enableSkillCommands).toBe(false);
    expect(settings.skills).toEqual(["~/old-skills"]);
    expect(settings.retry).toMatchObject({ maxDelayMs: 5000, provider: { maxRetryDelayMs: 5000 } });
  });

  it("throws a one-line error naming a malformed global or project file", async () => {
    const handle = await bootSettings();
    writeJson(globalFile(), '{ "theme": "dark",\n  "compaction": { }, }\n');
    const globalError = await handle.call("get", cwd).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(globalError?.message).toMatch(
      new RegExp(`^${escapeRegExp(globalFile())}: not valid JSON \\(.+\\); fix or delete the file$`),
    );
    expect(globalError?.message).not.toContain("\n");

    writeJson(globalFile(), { theme: "dark" });
    writeJson(projectFile(), "[1, 2]");
    await expect(handle.call("get", cwd)).rejects.toThrow(
      `${projectFile()}: must hold a JSON object like {"defaultModel": "..."}`,
    );

    writeJson(projectFile(), "");
    expect((await handle.call("get", cwd)).theme).toBe("dark");
  });

  it("refuses a wrong-typed key with one line naming the file, the key and both types; null and unknown keys pass", async () => {
    const handle = await bootSettings();
    writeJson(globalFile(), { defaultProvider: 5, defaultModel: "claude-sonnet-4-5" });
    await expect(handle.call("get", cwd)).rejects.toThrow(
      `${globalFile()}: "defaultProvider" must be a string, got a number (5); fix or remove it`,
    );

    writeJson(globalFile(), { defaultProvider: "anthropic" });
    writeJson(projectFile(), { packages: { a: 1 } });
    await expect(handle.call("get", cwd)).rejects.toThrow(
      `${projectFile()}: "packages" must be an array, got an object ({"a":1}); fix or remove it`,
    );

    writeJson(projectFile(), { defaultModel: null, somethingNew: 5, hideThinkingBlock: true });
    const settings = await handle.call("get", cwd);
    expect(settings.defaultProvider).toBe("anthropic");
    expect(settings.hideThinkingBlock).toBe(true);
  });

  it("set() writes one key atomically, keeping the other keys, with 2-space JSON", async () => {
    writeJson(globalFile(), {
      theme: "light",
      compaction: { enabled: false, reserveTokens: 1000 },
      myExtension: { a: [1, 2] },
    });
    const before = statSync(globalFile()).ino;
    const handle = await bootSettings();
    await handle.call("set", cwd, "compaction.reserveTokens", 4096, "global");
    expect(readJson(globalFile())).toEqual({
      theme: "light",
      compaction: { enabled: false, reserveTokens: 4096 },
      myExtension: { a: [1, 2] },
    });
    expect(readFileSync(globalFile(), "utf8")).toBe(
      '{\n  "theme": "light",\n  "compaction": {\n    "enabled": false,\n    "reserveTokens": 4096\n  },\n  "myExtension": {\n    "a": [\n      1,\n      2\n    ]\n  }\n}\n',
    );
    // A new file was renamed over the old one (never rewritten in place), and no temp file or lock is left.
    expect(statSync(globalFile()).ino).not.toBe(before);
    expect(readdirSync(agentDir)).toEqual(["settings.json"]);
    expect((await handle.call("get", cwd)).compaction?.reserveTokens).toBe(4096);
  });

  it("set() creates missing files and objects, writes the project file with `project`, and removes a key given undefined", async () => {
    const handle = await bootSettings();
    await handle.call("set", cwd, "defaultModel", "gpt-5", "project");
    await handle.call("set", cwd, "terminal.showImages", false, "project");
    expect(readJson(projectFile())).toEqual({ defaultModel: "gpt-5", terminal: { showImages: false } });
    expect(existsSync(globalFile())).toBe(false);
    const merged = await handle.call("get", cwd);
    expect(merged.defaultModel).toBe("gpt-5");
    expect(merged.terminal).toMatchObject({ showImages: false, imageWidthCells: 60 });

    await handle.call("set", cwd, "defaultModel", undefined, "project");
    expect(readJson(projectFile())).toEqual({ terminal: { showImages: false } });
  });

  it("set() refuses bad keys, bad values, values in the way, and malformed files (which it leaves untouched)", async () => {
    const handle = await bootSettings();
    await expect(handle.call("set", cwd, "a..b", 1, "global")).rejects.toThrow(
      'invalid settings key "a..b": use a name or a dotted path like "compaction.reserveTokens"',
    );
    await expect(handle.call("set", cwd, "__proto__.polluted", 1, "global")).rejects.toThrow(
      '"__proto__" is not allowed as a key',
    );
    await expect(handle.call("set", cwd, "hook", () => 1, "global")).rejects.toThrow(
      'cannot store settings key "hook": a function is not a JSON value',
    );
    await expect(handle.call("set", cwd, "x", 1, "everywhere" as "global")).rejects.toThrow(
      'invalid settings scope "everywhere"',
    );

    writeJson(globalFile(), { retry: 5 });
    await expect(handle.call("set", cwd, "retry.enabled", false, "global")).rejects.toThrow(
      `${globalFile()}: cannot set "retry.enabled": "retry" holds a number, not an object`,
    );
    expect(readJson(globalFile())).toEqual({ retry: 5 });

    writeJson(globalFile(), "{ broken");
    await expect(handle.call("set", cwd, "theme", "dark", "global")).rejects.toThrow(`${globalFile()}: not valid JSON`);
    expect(readFileSync(globalFile(), "utf8")).toBe("{ broken");
  });

  it("set() calls made at once all land: writes to one file are serialized", async () => {
    writeJson(globalFile(), { keep: "me" });
    const handle = await bootSettings();
    await Promise.all(Array.from({ length: 20 }, (_, i) => handle.call("set", cwd, `many.k${i}`, i, "global")));
    const written = readJson(globalFile()) as { keep: string; many: Record<string, number> };
    expect(written.keep).toBe("me");
    expect(Object.keys(written.many)).toHaveLength(20);
    expect(written.many.k19).toBe(19);
  });

  it("does not re-read unchanged files on a second get(), and re-reads a file that changed", async () => {
    const reads: string[] = [];
    const counting: SettingsFileAccess = {
      ...nodeSettingsFileAccess,
      readText: (path) => (reads.push(path), nodeSettingsFileAccess.readText(path)),
    };
    const store = new FileSettingsStore({ agentDir, files: counting });
    writeJson(globalFile(), { theme: "light" });
    writeJson(projectFile(), { defaultModel: "a" });

    expect((await store.get(cwd)).defaultModel).toBe("a");
    expect(reads.sort()).toEqual([globalFile(), projectFile()].sort());
    reads.length = 0;
    expect((await store.get(cwd)).defaultModel).toBe("a");
    expect(reads).toEqual([]);

    writeJson(projectFile(), { defaultModel: "b" });
    const later = new Date(Date.now() + 5_000);
    utimesSync(projectFile(), later, later);
    expect((await store.get(cwd)).defaultModel).toBe("b");
    expect(reads).toEqual([projectFile()]);
  });

  it("takes over an abandoned lock and gives up with a clear error on a live one", async () => {
    const store = new FileSettingsStore({ agentDir, lock: { attempts: 3, delayMs: 1, staleMs: 10_000 } });
    const lock = `${globalFile()}.lock`;
    mkdirSync(lock);
    await expect(store.set(cwd, "theme", "dark", "global")).rejects.toThrow(
      `${globalFile()}: another process is writing it (lock ${lock}); try again`,
    );
    expect(existsSync(globalFile())).toBe(false);

    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await store.set(cwd, "theme", "dark", "global");
    expect(readJson(globalFile())).toEqual({ theme: "dark" });
    expect(existsSync(lock)).toBe(false);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
