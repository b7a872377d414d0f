/**
 * `pi plugin eject` as a user of the installed package meets it: the files `npm pack` would publish are
 * laid out as an installed pi-host (dist/ plus the plugin, contract and kernel sources), its CLI ejects a
 * built-in into a temp agent folder, and the copy — importing only "pi-host" — runs, and reloads when
 * edited under `pi --watch`.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ejectPlugin } from "../../hosts/plugin-eject.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The files `npm pack` would publish, from the package.json "files" field. */
function packedFiles(): string[] {
  const report = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" }),
  ) as Array<{ files: Array<{ path: string }> }>;
  return report[0]!.files.map((f) => f.path);
}

let published: string[];
/** An installed pi-host: exactly the published files, with the repository's node_modules as its dependencies. */
let installed: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli.js"))) throw new Error(`dist/cli.js is missing; run "npm run build" first`);
  published = packedFiles();
  installed = mkdtempSync(join(tmpdir(), "pi-installed-"));
  for (const file of published) {
    mkdirSync(dirname(join(installed, file)), { recursive: true });
    cpSync(join(ROOT, file), join(installed, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"));
}, 60_000);

/** A user: an agent folder and a project folder, no keys. */
function newUser(): { agent: string; project: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), "pi-eject-"));
  const agent = join(home, "agent");
  const project = join(home, "project");
  mkdirSync(agent, { recursive: true });
  mkdirSync(project, { recursive: true });
  return {
    agent,
    project,
    env: { PI_CODING_AGENT_DIR: agent, HOME: home, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" },
  };
}

/** Runs the installed pi; resolves with its exit code and output. */
function pi(
  args: string[],
  where: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(installed, "dist", "cli.js"), ...args], {
      cwd: where.cwd,
      env: { ...process.env, ...where.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under a folder, relative, sorted (links are not followed). */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** Resolves once `file` exists, woken by the folder's change events rather than by polling. */
function fileAppears(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve();
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

type Rec = Record<string, any>;

/** `pi --mode rpc` over pipes: JSON lines in, records out, with waits on records. */
class RpcClient {
  readonly records: Rec[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  private buffer = "";
  private waiters: Array<{ match: (r: Rec) => boolean; resolve: (r: Rec) => void }> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf("\n"); nl !== -1; nl = this.buffer.indexOf("\n")) {
        const record = JSON.parse(this.buffer.slice(0, nl)) as Rec;
        this.buffer = this.buffer.slice(nl + 1);
        this.records.push(record);
        const waiting = this.waiters;
        this.waiters = [];
        for (const w of waiting) w.match(record) ? w.resolve(record) : this.waiters.push(w);
      }
    });
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  }

  send(command: Rec): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** The first record (already seen or still to come) after index `from` that matches. */
  next(match: (r: Rec) => boolean, from = 0): Promise<Rec> {
    const found = this.records.slice(from).find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Sends a prompt and resolves with the tool results of the run it started, once it has ended. */
  async prompt(id: string, message: string): Promise<Rec[]> {
    const from = this.records.length;
    this.send({ id, type: "prompt", message });
    await this.next((r) => r.type === "agent_end", from);
    this.send({ id: `${id}-messages`, type: "get_messages" });
    const messages = (await this.next((r) => r.type === "response" && r.id === `${id}-messages`)).data
      .messages as Rec[];
    return messages.filter((m) => m.role === "toolResult");
  }
}

const textOf = (result: Rec): string => result.content.map((c: Rec) => c.text ?? "").join("");

/** A --distribution overlay: the scripted faux model answering `responses`, and the RPC mode. */
function fauxOverlay(dir: string, responses: unknown[]): string {
  const file = join(dir, "faux.plugins.json");
  const providers = {
    faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] },
  };
  writeFileSync(
    file,
    JSON.stringify({
      plugins: [
        { id: "models", config: { providers } },
        { id: "provider-faux", config: { responses } },
        { id: "mode-rpc", use: "mode-rpc" },
      ],
    }),
  );
  return file;
}

const readCall = (id: string, path: string): unknown => ({
  content: [{ type: "toolCall", id, name: "read", arguments: { path } }],
});

describe("the published package", () => {
  it("ships the plugin, contract and kernel sources next to dist/ (and no tests)", () => {
    for (const file of [
      "dist/cli.js",
      "plugins.json",
      "plugins/tools/tool-read/index.ts",
      "plugins/tools/tool-read/read-tool.ts",
      "contracts/tool.ts",
      "contracts/ai/index.ts",
      "kernel/index.ts",
    ]) {
      expect(published, file).toContain(file);
    }
    expect(published.filter((f) => f.startsWith("tests/") || f.startsWith("examples/"))).toEqual([]);
  });
});

describe("pi plugin eject (installed package, built CLI)", () => {
  it("copies tool-read's source into the agent folder unchanged (it imports only pi-host), and points plugins.json at it", async () => {
    const user = newUser();
    const run = await pi(["plugin", "eject", "tool-read"], { cwd: user.project, env: user.env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dest = join(user.agent, "plugins", "tool-read");
    expect(run.stdout).toContain(`Ejected tool-read to ${dest}`);
    expect(run.stdout).toContain(`${join(user.agent, "plugins.json")}: "tool-read" now uses ./plugins/tool-read`);

    const source = join(installed, "plugins", "tools", "tool-read");
    expect(listing(dest)).toEqual(listing(source));
    for (const file of listing(dest)) {
      const text = readFileSync(join(dest, file), "utf8");
      expect(text, file).toBe(readFileSync(join(source, file), "utf8"));
      expect(text, file).not.toMatch(/["'](?:\.\.\/)+(?:contracts|kernel|kit)\//);
    }
    const index = readFileSync(join(dest, "index.ts"), "utf8");
    expect(index).toContain(`import { ToolContract } from "pi-host";`);
    expect(index).toContain(`import { definePlugin } from "pi-host";`);
    expect(index).toContain(`from "./read-tool.js";`);
    expect(JSON.parse(readFileSync(join(user.agent, "plugins.json"), "utf8"))).toEqual({
      plugins: [{ id: "tool-read", use: "./plugins/tool-read" }],
    });

    const plugins = JSON.parse((await pi(["plugins", "--json"], { cwd: user.project, env: user.env })).stdout) as Rec[];
    expect(plugins.find((p) => p.id === "tool-read")).toMatchObject({
      status: "active",
      source: join(dest, "index.ts"),
      provides: [{ contract: "tool", key: "read" }],
    });
  });

  it("acceptance: the ejected tool-read, edited under pi --watch (RPC mode), serves the next read call", async () => {
    const user = newUser();
    expect((await pi(["plugin", "eject", "tool-read"], { cwd: user.project, env: user.env })).code).toBe(0);
    writeFileSync(join(user.project, "a.txt"), "alpha\n");
    const overlay = fauxOverlay(user.project, [
      readCall("first", "a.txt"),
      { content: "read once" },
      readCall("second", "a.txt"),
      { content: "read twice" },
    ]);
    const child = spawn(
      process.execPath,
      [
        join(installed, "dist", "cli.js"),
        "--mode",
        "rpc",
        "--watch",
        "--no-session",
        "--model",
        "faux/faux-1",
        "--distribution",
        overlay,
      ],
      {
        cwd: user.project,
        env: { ...process.env, ...user.env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const rpc = new RpcClient(child);
    try {
      const before = await rpc.prompt("p1", "read a.txt");
      expect(before.map(textOf)).toEqual(["alpha\n"]);

      // The edit a user makes to the copy: the read tool marks what it returns. The copy's index.ts
      // then gains a start hook that writes a file — it runs once the edited generation is committed.
      const dest = join(user.agent, "plugins", "tool-read");
      const readTool = join(dest, "read-tool.ts");
      const execute = "execute: (_toolCallId, params, signal, _onUpdate, ctx) => readPath(params, signal, ctx),";
      const source = readFileSync(readTool, "utf8");
      expect(source).toContain(execute);
      writeFileSync(
        readTool,
        source.replace(
          execute,
          `execute: async (_toolCallId, params, signal, _onUpdate, ctx) => {
      const result = await readPath(params, signal, ctx);
      return { ...result, content: [...result.content, { type: "text" as const, text: "[read by the edited copy]" }] };
    },`,
        ),
      );
      const committed = join(user.project, "edited-generation-live");
      const index = join(dest, "index.ts");
      writeFileSync(
        index,
        `import { renameSync, writeFileSync } from "node:fs";\n${readFileSync(index, "utf8").replace(
          `ctx.provide(ToolContract, { ...createReadTool(), enabled }, { key: "read" });`,
          `ctx.provide(ToolContract, { ...createReadTool(), enabled }, { key: "read" });
    ctx.onStart(() => {
      writeFileSync(${JSON.stringify(`${committed}.tmp`)}, String(ctx.generation));
      renameSync(${JSON.stringify(`${committed}.tmp`)}, ${JSON.stringify(committed)});
    });`,
        )}`,
      );
      await fileAppears(committed);
      expect(Number(readFileSync(committed, "utf8"))).toBeGreaterThan(1);

      const after = await rpc.prompt("p2", "read it again");
      expect(after.map(textOf)).toEqual(["alpha\n", "alpha\n[read by the edited copy]"]);
      child.stdin.end();
      expect(await rpc.exited).toBe(0);
      expect(rpc.stderr).toBe("");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("-l ejects into the project's .pi/plugins and its plugins.json, which applies once the project is trusted", async () => {
    const user = newUser();
    const run = await pi(["plugin", "eject", "tool-ls", "-l"], { cwd: user.project, env: user.env });
    expect(run.code).toBe(0);
    const dest = join(user.project, ".pi", "plugins", "tool-ls");
    expect(run.stdout).toContain(`Ejected tool-ls to ${dest}`);
    expect(JSON.parse(readFileSync(join(user.project, ".pi", "plugins.json"), "utf8"))).toEqual({
      plugins: [{ id: "tool-ls", use: "./plugins/tool-ls" }],
    });
    expect(existsSync(join(user.agent, "plugins.json"))).toBe(false);
    // Not trusted yet: the copy is written, and the user is told why it does not run.
    expect(run.stderr).toContain(
      `skipped project resources in ${user.project} (.pi/plugins.json): the project is not trusted; run "pi trust"`,
    );
    expect(run.stderr).toContain(`"tool-ls" still runs from tool-ls`);

    expect((await pi(["trust"], { cwd: user.project, env: user.env })).code).toBe(0);
    const plugins = JSON.parse((await pi(["plugins", "--json"], { cwd: user.project, env: user.env })).stdout) as Rec[];
    expect(plugins.find((p) => p.id === "tool-ls")).toMatchObject({ status: "active", source: join(dest, "index.ts") });
  });

  it("keeps the rest of an existing plugins.json: other entries, the entry's config, the file's form", async () => {
    const user = newUser();
    const file = join(user.agent, "plugins.json");
    writeFileSync(
      file,
      JSON.stringify([
        { id: "tool-bash", enabled: false },
        { id: "tool-read", config: {} },
      ]),
    );
    expect((await pi(["plugin", "eject", "tool-read"], { cwd: user.project, env: user.env })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual([
      { id: "tool-bash", enabled: false },
      { id: "tool-read", config: {}, use: "./plugins/tool-read" },
    ]);
  });

  it("refuses in one line with exit 2, changing nothing: unknown id, a plugin that is not a built-in, an existing folder, a broken plugins.json", async () => {
    const user = newUser();
    const where = { cwd: user.project, env: user.env };
    const refused = async (args: string[], message: string): Promise<void> => {
      const before = listing(user.agent);
      const run = await pi(args, where);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n"), run.stderr).toHaveLength(1);
      expect(run.stderr).toContain(message);
      expect(listing(user.agent)).toEqual(before);
    };
    await refused(
      ["plugin", "eject", "no-such-plugin"],
      `pi: no plugin "no-such-plugin" in the distribution and no built-in of that name; see "pi plugins" (built-ins: account-login, agent-loop,`,
    );
    await refused(["plugin", "eject"], "pi: pi plugin eject takes one <id>: pi plugin eject <id>");
    await refused(
      ["plugin", "eject", "tool-read", "--force"],
      `pi: unknown flag --force for "pi plugin eject"; it takes -l`,
    );
    await refused(["plugin", "frobnicate"], `pi: unknown command "pi plugin frobnicate"`);

    expect((await pi(["plugin", "eject", "tool-read"], where)).code).toBe(0);
    await refused(
      ["plugin", "eject", "tool-read"],
      `pi: plugin "tool-read" already runs from ./plugins/tool-read (set in ${join(user.agent, "plugins.json")}), not a built-in; edit it there`,
    );

    mkdirSync(join(user.agent, "plugins", "tool-grep"));
    await refused(
      ["plugin", "eject", "tool-grep"],
      `pi: ${join(user.agent, "plugins", "tool-grep")} already exists; edit that copy, or remove it to eject "tool-grep" again`,
    );

    writeFileSync(join(user.agent, "plugins.json"), "{ not json");
    await refused(["plugin", "eject", "tool-find"], `pi: ${join(user.agent, "plugins.json")}: not valid JSON`);
  });

  it("every built-in ejects as a plain copy of its source and boots from it (npm imports resolve)", async () => {
    const user = newUser();
    const builtins = readdirSync(join(installed, "dist", "plugins")).sort();
    // Opt-in plugins of the default distribution stay off after eject; the user is told how to turn them on.
    const optIn = new Set(
      (JSON.parse(readFileSync(join(installed, "plugins.json"), "utf8")).plugins as Rec[])
        .filter((e) => e.enabled === false)
        .map((e) => e.id as string),
    );
    for (const id of builtins) {
      const outcome = await ejectPlugin({
        id,
        local: false,
        agentDir: user.agent,
        cwd: user.project,
        packageRoot: installed,
        defaultFile: join(installed, "plugins.json"),
        builtinDir: join(installed, "dist", "plugins"),
      });
      // The copy is the built-in's source, byte for byte: built-ins import only "pi-host", like any plugin.
      const source = readdirSync(join(installed, "plugins"))
        .map((kind) => join(installed, "plugins", kind, id))
        .find((dir) => existsSync(join(dir, "index.ts")))!;
      for (const file of outcome.files)
        expect(readFileSync(join(outcome.dest, file), "utf8"), `${id}/${file}`).toBe(
          readFileSync(join(source, file), "utf8"),
        );
      if (optIn.has(id))
        expect(outcome.notices).toContain(
          `"${id}" is disabled in the distribution; set "enabled": true to run the copy`,
        );
    }
    const run = await pi(["plugins", "--json"], { cwd: user.project, env: user.env });
    expect(run.stderr).toBe("");
    const plugins = JSON.parse(run.stdout) as Rec[];
    expect(plugins.map((p) => p.id).sort()).toEqual(builtins);
    for (const plugin of plugins) {
      const status = optIn.has(plugin.id) ? "disabled" : "active";
      expect(plugin, plugin.id).toMatchObject({ status, source: join(user.agent, "plugins", plugin.id, "index.ts") });
    }
    // An opt-in copy boots too, once turned on (in place of the default it is an alternative to).
    const alternativeTo: Record<string, string> = { "session-sqlite": "session-jsonl" };
    for (const id of optIn) {
      const instead = alternativeTo[id] !== undefined ? ["--no-plugin", alternativeTo[id]] : [];
      const on = await pi(["plugins", "--json", "--plugin", `${id}=${join(user.agent, "plugins", id)}`, ...instead], {
        cwd: user.project,
        env: user.env,
      });
      expect(
        (JSON.parse(on.stdout) as Rec[]).find((p) => p.id === id),
        id,
      ).toMatchObject({ status: "active" });
    }
  }, 120_000);
});
