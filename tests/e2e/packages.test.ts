/**
 * `pi install/list/update/remove` on the built CLI against real package sources on 127.0.0.1: npm
 * packages published to a verdaccio registry, git repositories served by `git daemon`. A fixture package
 * holds a pi-host plugin (the `greet` tool), a skill and a prompt template; installed, its tool runs in
 * `pi -p` and its skill reaches the system prompt.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ToolContract } from "../../contracts/tool.js";
import type { OperationResult } from "../../kernel/index.js";
import { composeKernel, resolveDistribution } from "../../hosts/compose.js";
import { watchPlugins } from "../../hosts/watch.js";
import { treeHash, treeListing, writeFixturePackage } from "../fixtures/packages/fixture-package.js";
import { startGitServer, type GitServer } from "../fixtures/packages/git-server.js";
import { runPiExact } from "../fixtures/packages/pi-process.js";
import { startRegistry, startStoppingProxy, type TestRegistry } from "../fixtures/packages/registry.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { requireSystemTool } from "../support/system-tools.js";
import { agentHome, completionsText, completionsToolCall, sessionLines, type AgentHome } from "./agent-home.js";
import { PI_BIN, type PiRun } from "./run-pi.js";

/** git packages need git (and `git daemon`); without it those tests skip and say so. */
const HAS_GIT = requireSystemTool("git", ["git"], "the git package tests");

let registry: TestRegistry;
let gitServer: GitServer;
let llm: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  [registry, gitServer, llm] = await Promise.all([
    startRegistry(),
    HAS_GIT ? startGitServer() : (undefined as unknown as GitServer),
    new MockLlmServer().start(),
  ]);
  await registry.publish(writeFixturePackage("greeter", { name: "pi-fixture-greeter", version: "1.0.0" }));
}, 60_000);
afterAll(async () => {
  await Promise.all([registry?.close(), gitServer?.close(), llm?.close()]);
});
beforeEach(() => {
  user = agentHome();
  llm.requests.length = 0;
});

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Each test publishes and installs packages; npm and git on two cores take a few seconds a step. */
const SLOW = 120_000;

/** Runs the built pi as this test's user, with npm pointed at the test registry (or at `registryEnv`). */
function pi(args: string[], registryEnv: Record<string, string> = registry.env): Promise<PiRun> {
  return runPiExact(args, user.project, { ...registryEnv, ...user.env });
}

/** Runs pi and fails the test with its stderr when it does not exit 0. */
async function piOk(args: string[]): Promise<PiRun> {
  const run = await pi(args);
  if (run.code !== 0) throw new Error(`pi ${args.join(" ")} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

const settings = (): any => JSON.parse(readFileSync(join(user.agent, "settings.json"), "utf8"));
const listJson = async (): Promise<any[]> => JSON.parse((await piOk(["list", "--json"])).stdout);

/** Scripts faux to call `tool` with `args`, then answer; runs pi -p; returns the tool result's text. */
async function callToolThroughFaux(tool: string, args: Record<string, unknown>): Promise<string> {
  user.scriptFaux([
    { content: [{ type: "toolCall", id: "call_1", name: tool, arguments: args }] },
    { content: "Done." },
  ]);
  const run = await piOk(["-p", "--model", "faux/faux-1", `use ${tool}`]);
  expect(run.stdout).toBe("Done.\n");
  const files = user.sessionFiles();
  const result = sessionLines(files[files.length - 1]!).find(
    (e) => e.type === "message" && e.message.role === "toolResult",
  ).message;
  expect(result).toMatchObject({ toolName: tool, isError: false });
  return result.content[0].text;
}

const greetThroughFaux = (): Promise<string> => callToolThroughFaux("greet", { name: "ada" });

/** Publishes the greeter fixture under `name` at each version. */
async function publishGreeter(name: string, ...versions: string[]): Promise<void> {
  for (const version of versions) await registry.publish(writeFixturePackage("greeter", { name, version }));
}

describe("npm: packages from a verdaccio registry on 127.0.0.1", () => {
  it(
    "install → list shows it → its tool works in pi -p and its skill reaches the prompt → update moves to 1.1.0 → remove removes it",
    async () => {
      const install = await piOk(["install", "npm:pi-fixture-greeter"]);
      expect(install.stdout).toContain("Installed npm:pi-fixture-greeter 1.0.0 (global)");
      expect(install.stderr).toContain("fetching pi-fixture-greeter with npm"); // progress on stderr
      expect(settings().packages).toEqual(["npm:pi-fixture-greeter"]);
      const folder = join(user.agent, "npm", "node_modules", "pi-fixture-greeter");
      expect(existsSync(join(folder, "plugins", "greeter", "index.ts"))).toBe(true);

      const list = await piOk(["list"]);
      expect(list.stdout).toContain("npm:pi-fixture-greeter  (1.0.0)");
      expect(list.stdout).toContain("plugins: greeter (plugins/greeter)");
      expect(list.stdout).toContain("skills: skills");
      const [entry] = await listJson();
      expect(entry).toMatchObject({
        source: "npm:pi-fixture-greeter",
        scope: "global",
        kind: "npm",
        version: "1.0.0",
        pinned: false,
        installed: true,
        path: folder,
        problems: [],
      });

      const plugins = JSON.parse((await piOk(["plugins", "--json"])).stdout) as any[];
      expect(plugins.find((p) => p.id === "greeter")).toMatchObject({
        status: "active",
        version: "1.0.0",
        source: join(folder, "plugins", "greeter", "index.ts"),
      });

      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.0.0");

      // The same run against a real wire protocol: the tool is offered and the package's skill is in the system prompt.
      user.useMockServer(`${llm.url}/v1`);
      llm.enqueue(
        { sse: completionsToolCall("call_greet_2", "greet", { name: "bo" }) },
        { sse: completionsText("done") },
      );
      await piOk(["-p", "--model", "mock/mock-1", "greet bo"]);
      const first = llm.requests[0]!.body;
      expect(first.tools.map((t: any) => t.function.name)).toContain("greet");
      expect(first.messages[0].content).toContain("greeting-style");
      expect(first.messages[0].content).toContain(join(folder, "skills", "greeting-style", "SKILL.md"));
      expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain("hello bo from greeter 1.0.0");

      await registry.publish(writeFixturePackage("greeter", { name: "pi-fixture-greeter", version: "1.1.0" }));
      const update = await piOk(["update", "--extensions"]);
      expect(update.stdout).toContain("Updated 1 package:\n  npm:pi-fixture-greeter 1.0.0 -> 1.1.0\n");
      expect((await listJson())[0].version).toBe("1.1.0");
      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.1.0");
      expect((await piOk(["update", "--extensions"])).stderr).toContain(
        "Current npm:pi-fixture-greeter is at the newest 1.1.0",
      );

      const remove = await piOk(["remove", "npm:pi-fixture-greeter"]);
      expect(remove.stdout).toContain("Removed npm:pi-fixture-greeter");
      expect(settings().packages).toEqual([]);
      expect(existsSync(folder)).toBe(false);
      expect((await piOk(["list"])).stdout).toBe("No packages installed.\n");
      const after = JSON.parse((await piOk(["plugins", "--json"])).stdout) as any[];
      expect(after.find((p) => p.id === "greeter")).toBeUndefined();
    },
    SLOW,
  );

  it(
    "an install with a version stays pinned on update; installing the bare name unpins it and moves to the newest",
    async () => {
      await publishGreeter("pi-fixture-pinned", "1.0.0", "1.1.0");
      await piOk(["install", "npm:pi-fixture-pinned@1.0.0"]);
      expect(settings().packages).toEqual(["npm:pi-fixture-pinned@1.0.0"]);
      expect(await listJson()).toMatchObject([{ version: "1.0.0", pinned: true }]);

      const update = await piOk(["update", "--extensions"]);
      expect(update.stderr).toContain("Pinned npm:pi-fixture-pinned@1.0.0 stays at 1.0.0");
      expect(update.stdout).toBe("Packages are already up to date\n");
      expect((await piOk(["update", "npm:pi-fixture-pinned"])).stderr).toContain("stays at 1.0.0");
      expect(await listJson()).toMatchObject([{ version: "1.0.0", pinned: true }]);
      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.0.0");

      await piOk(["install", "npm:pi-fixture-pinned"]);
      expect(settings().packages).toEqual(["npm:pi-fixture-pinned"]); // the same package: its entry is replaced, not doubled
      expect(await listJson()).toMatchObject([{ version: "1.1.0", pinned: false }]);
      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.1.0");
    },
    SLOW,
  );

  it(
    "-l installs into the project (.pi/settings.json, .pi/npm/); its plugin runs once the project is trusted",
    async () => {
      await publishGreeter("pi-fixture-local", "2.0.0");
      await piOk(["install", "npm:pi-fixture-local", "-l"]);
      const projectSettings = JSON.parse(readFileSync(join(user.project, ".pi", "settings.json"), "utf8"));
      expect(projectSettings.packages).toEqual(["npm:pi-fixture-local"]);
      expect(existsSync(join(user.agent, "settings.json"))).toBe(false);
      expect(existsSync(join(user.project, ".pi", "npm", "node_modules", "pi-fixture-local", "package.json"))).toBe(
        true,
      );
      expect((await piOk(["list"])).stdout).toContain(
        `Project packages (${join(user.project, ".pi", "settings.json")}):`,
      );

      const untrusted = await piOk(["plugins", "--json"]);
      expect(JSON.parse(untrusted.stdout).find((p: any) => p.id === "greeter")).toBeUndefined();
      expect(untrusted.stderr).toContain(
        `skipped project resources in ${user.project} (.pi/settings.json): the project is not trusted; run "pi trust"`,
      );

      await piOk(["trust"]);
      expect(JSON.parse((await piOk(["plugins", "--json"])).stdout).find((p: any) => p.id === "greeter")).toMatchObject(
        { status: "active", version: "2.0.0" },
      );
      await piOk(["remove", "npm:pi-fixture-local", "-l"]);
      expect(existsSync(join(user.project, ".pi", "npm", "node_modules", "pi-fixture-local"))).toBe(false);
      expect(JSON.parse(readFileSync(join(user.project, ".pi", "settings.json"), "utf8")).packages).toEqual([]);
    },
    SLOW,
  );
});

describe.skipIf(!HAS_GIT)("git: packages from a bare repository served by git daemon on 127.0.0.1", () => {
  it(
    "install at a ref (pinned) → list → tool works → update keeps the ref → unpinned install follows main → update pulls a new commit → remove",
    async () => {
      const repo = await gitServer.createRepo("acme/greeter.git");
      const v1 = await repo.commitFolder(
        writeFixturePackage("greeter", { name: "greeter-from-git", version: "1.0.0" }),
        "greeter 1.0.0",
      );
      await repo.tag("v1");
      const v11 = await repo.commitFolder(
        writeFixturePackage("greeter", { name: "greeter-from-git", version: "1.1.0" }),
        "greeter 1.1.0",
      );
      await repo.push();
      const url = gitServer.url("acme/greeter.git");
      const folder = join(user.agent, "git", "127.0.0.1", "acme", "greeter");

      const install = await piOk(["install", `git:${url}@v1`]);
      expect(install.stderr).toContain(`cloning ${url} at v1`);
      expect(settings().packages).toEqual([`git:${url}@v1`]);
      expect(existsSync(join(folder, "plugins", "greeter", "index.ts"))).toBe(true);
      expect(await listJson()).toMatchObject([
        {
          kind: "git",
          name: "127.0.0.1/acme/greeter",
          ref: "v1",
          commit: v1,
          version: "1.0.0",
          pinned: true,
          path: folder,
          problems: [],
        },
      ]);
      expect((await piOk(["list"])).stdout).toContain(`git:${url}@v1  (1.0.0, ref v1, ${v1.slice(0, 7)}, pinned)`);
      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.0.0");

      expect((await piOk(["update", "--extensions"])).stderr).toContain(
        `Pinned git:${url}@v1 stays at ${v1.slice(0, 7)}`,
      );
      expect((await listJson())[0].commit).toBe(v1);

      await piOk(["install", `git:${url}`]);
      expect(settings().packages).toEqual([`git:${url}`]);
      expect(await listJson()).toMatchObject([{ commit: v11, version: "1.1.0", pinned: false }]);
      expect((await piOk(["update", "--extensions"])).stderr).toContain(
        `Current git:${url} is at the newest ${v11.slice(0, 7)}`,
      );

      const v12 = await repo.commitFolder(
        writeFixturePackage("greeter", { name: "greeter-from-git", version: "1.2.0" }),
        "greeter 1.2.0",
      );
      await repo.push();
      expect((await piOk(["update", `git:${url}`])).stdout).toContain(
        `Updated 1 package:\n  git:${url} ${v11.slice(0, 7)} -> ${v12.slice(0, 7)}`,
      );
      expect(await greetThroughFaux()).toBe("hello ada from greeter 1.2.0");

      await piOk(["remove", `git:${url}`]);
      expect(settings().packages).toEqual([]);
      expect(existsSync(join(user.agent, "git", "127.0.0.1"))).toBe(false);
    },
    SLOW,
  );

  it(
    "a repository with dependencies gets them from npm inside the staged clone",
    async () => {
      await registry.publish(writeFixturePackage("dep", { name: "pi-fixture-git-dep", version: "1.0.0" }));
      const repo = await gitServer.createRepo("acme/with-deps.git");
      await repo.commitFolder(
        writeFixturePackage("needs-dep", { name: "with-deps", version: "1.0.0", dep: "pi-fixture-git-dep" }),
        "with a dependency",
      );
      await repo.push();
      const install = await piOk(["install", `git:${gitServer.url("acme/with-deps.git")}`]);
      expect(install.stderr).toContain("installing its dependencies with npm");
      const folder = join(user.agent, "git", "127.0.0.1", "acme", "with-deps");
      expect(existsSync(join(folder, "node_modules", "pi-fixture-git-dep", "package.json"))).toBe(true);
      expect(existsSync(join(folder, "package-lock.json"))).toBe(false); // the clone's tree stays as committed
      expect(await listJson()).toMatchObject([
        { kind: "git", version: "1.0.0", contributes: { skills: [join(folder, "skills")] }, problems: [] },
      ]);
    },
    SLOW,
  );
});

describe("failed installs leave settings.json and the install folders byte-for-byte as before", () => {
  /** Installs a working package, then rewrites settings.json by hand (4-space indent, an extra key) so any rewrite shows. */
  async function userWithOnePackage(): Promise<void> {
    await piOk(["install", "npm:pi-fixture-greeter@1.0.0"]);
    const handWritten = { theme: "dark", packages: ["npm:pi-fixture-greeter@1.0.0"], defaultModel: "faux-1" };
    writeFileSync(join(user.agent, "settings.json"), JSON.stringify(handWritten, null, 4));
  }

  /** Runs a pi command that must fail, and checks that the agent folder did not change at all. */
  async function expectFailureChangesNothing(
    args: string[],
    message: string | RegExp,
    registryEnv?: Record<string, string>,
  ): Promise<void> {
    const before = treeHash(user.agent);
    const listing = treeListing(user.agent);
    const run = await pi(args, registryEnv);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(treeListing(user.agent)).toEqual(listing);
    expect(treeHash(user.agent)).toBe(before);
  }

  it(
    "an unknown package (npm E404)",
    async () => {
      await userWithOnePackage();
      await expectFailureChangesNothing(
        ["install", "npm:pi-fixture-does-not-exist"],
        /pi: npm install pi-fixture-does-not-exist .*failed.*(404|not found|Not Found)/i,
      );
    },
    SLOW,
  );

  it(
    "a postinstall script that exits 1",
    async () => {
      await registry.publish(
        writeFixturePackage("bad-postinstall", { name: "pi-fixture-bad-postinstall", version: "1.0.0" }),
      );
      await userWithOnePackage();
      await expectFailureChangesNothing(["install", "npm:pi-fixture-bad-postinstall"], /postinstall refuses/);
    },
    SLOW,
  );

  it(
    "the registry stopped mid-install (after the package, before its dependency)",
    async () => {
      await registry.publish(writeFixturePackage("dep", { name: "pi-fixture-late-dep", version: "1.0.0" }));
      await registry.publish(
        writeFixturePackage("needs-dep", {
          name: "pi-fixture-needs-dep",
          version: "1.0.0",
          dep: "pi-fixture-late-dep",
        }),
      );
      await userWithOnePackage();
      const proxy = await startStoppingProxy(registry, (path) => path.includes("pi-fixture-late-dep"));
      try {
        await expectFailureChangesNothing(
          ["install", "npm:pi-fixture-needs-dep"],
          /pi: npm install pi-fixture-needs-dep .*failed/,
          registry.envFor(proxy.url),
        );
        await proxy.stopped; // it really was the registry going away that failed the install
      } finally {
        await proxy.close();
        await registry.start();
      }
      // With the registry back, the same install works, the dependency nested inside the package's folder.
      await piOk(["install", "npm:pi-fixture-needs-dep"]);
      expect(
        existsSync(
          join(
            user.agent,
            "npm",
            "node_modules",
            "pi-fixture-needs-dep",
            "node_modules",
            "pi-fixture-late-dep",
            "package.json",
          ),
        ),
      ).toBe(true);
    },
    SLOW,
  );

  it(
    "an update whose new version's download is cut off keeps the installed version",
    async () => {
      await publishGreeter("pi-fixture-cut", "1.0.0");
      await piOk(["install", "npm:pi-fixture-cut"]);
      await publishGreeter("pi-fixture-cut", "1.1.0");
      const proxy = await startStoppingProxy(registry, (path) => path.endsWith("pi-fixture-cut-1.1.0.tgz"));
      try {
        await expectFailureChangesNothing(
          ["update", "--extensions"],
          /pi: npm install pi-fixture-cut@1.1.0 .*failed/,
          registry.envFor(proxy.url),
        );
        await proxy.stopped;
      } finally {
        await proxy.close();
        await registry.start();
      }
      expect(await listJson()).toMatchObject([{ version: "1.0.0" }]);
    },
    SLOW,
  );

  it.skipIf(!HAS_GIT)(
    "a git ref that does not exist; a project install (-l) that fails leaves no .pi folder behind",
    async () => {
      const repo = await gitServer.createRepo("acme/refs.git");
      await repo.commitFolder(writeFixturePackage("greeter", { name: "greeter-refs", version: "1.0.0" }), "greeter");
      await repo.push();
      await userWithOnePackage();
      await expectFailureChangesNothing(
        ["install", `git:${gitServer.url("acme/refs.git")}@v9`],
        `git ref "v9" does not exist in ${gitServer.url("acme/refs.git")}`,
      );

      const projectBefore = treeListing(user.project);
      const run = await pi(["install", "npm:pi-fixture-does-not-exist", "-l"]);
      expect(run.code).toBe(1);
      expect(existsSync(join(user.project, ".pi"))).toBe(false);
      expect(treeListing(user.project)).toEqual(projectBefore);
    },
    SLOW,
  );
});

describe("a package plugin that replaces a built-in (id tool-bash)", () => {
  it(
    "takes effect after install: pi plugins shows it in place of the built-in and pi -p runs it",
    async () => {
      await registry.publish(writeFixturePackage("fake-bash", { name: "pi-fixture-bash", version: "1.0.0" }));
      await piOk(["install", "npm:pi-fixture-bash"]);
      const plugins = JSON.parse((await piOk(["plugins", "--json"])).stdout) as any[];
      expect(plugins.filter((p) => p.id === "tool-bash")).toMatchObject([
        {
          status: "active",
          version: "1.0.0",
          source: join(user.agent, "npm", "node_modules", "pi-fixture-bash", "plugin", "index.ts"),
        },
      ]);
      expect(await callToolThroughFaux("bash", { command: "ls" })).toBe("fixture bash 1.0.0 would run: ls");
    },
    SLOW,
  );

  it(
    "pi update to a new version hot-reloads it in a running session (compose + watchPlugins, no restart)",
    async () => {
      await registry.publish(writeFixturePackage("fake-bash", { name: "pi-fixture-bash-live", version: "1.0.0" }));
      await piOk(["install", "npm:pi-fixture-bash-live"]);

      const distribution = await resolveDistribution({
        cwd: user.project,
        agentDir: user.agent,
        defaultFile: join(ROOT, "plugins.json"),
        builtinDir: join(ROOT, "dist", "plugins"),
      });
      const { kernel, boot } = await composeKernel(distribution, join(ROOT, "dist", "plugins"));
      expect(boot.errors).toEqual([]);
      let reloaded: (result: OperationResult) => void = () => undefined;
      const reload = new Promise<OperationResult>((resolve) => (reloaded = resolve));
      const watcher = await watchPlugins(kernel, {
        onReload: (result) => result.pluginId === "tool-bash" && reloaded(result),
      });
      try {
        const bash = (): any =>
          kernel
            .useAll(ToolContract)
            .list()
            .find((h) => h.peek()?.name === "bash")!;
        const run = async (): Promise<string> =>
          (
            await bash().call("execute", "call_1", { command: "ls" }, undefined, undefined, {
              cwd: user.project,
              withFileLock: (_p: string, work: () => Promise<unknown>) => work(),
            })
          ).content[0].text;
        expect(await run()).toBe("fixture bash 1.0.0 would run: ls");
        const generation = kernel.describe().plugins.find((p) => p.id === "tool-bash")!.generation!;

        await registry.publish(writeFixturePackage("fake-bash", { name: "pi-fixture-bash-live", version: "1.1.0" }));
        expect((await piOk(["update", "--extensions"])).stdout).toContain("  npm:pi-fixture-bash-live 1.0.0 -> 1.1.0");
        const result = await reload;
        expect(result.status).toBe("committed");
        expect(await run()).toBe("fixture bash 1.1.0 would run: ls");
        expect(kernel.describe().plugins.find((p) => p.id === "tool-bash")).toMatchObject({
          version: "1.1.0",
          generation: generation + 1,
        });
      } finally {
        await watcher.close();
        await kernel.shutdown();
      }
    },
    SLOW,
  );

  it(
    "pi update hot-reloads it in a running `pi --mode rpc --watch`: the next prompt's bash is the new version",
    async () => {
      await registry.publish(writeFixturePackage("fake-bash", { name: "pi-fixture-bash-rpc", version: "1.0.0" }));
      await piOk(["install", "npm:pi-fixture-bash-rpc"]);
      const call = { type: "toolCall" as const, name: "bash", arguments: { command: "ls" } };
      user.scriptFaux([
        { content: [{ ...call, id: "call_a" }] },
        { content: "first" },
        { content: [{ ...call, id: "call_b" }] },
        { content: "second" },
      ]);
      const markers = join(user.home, "markers");
      mkdirSync(markers);
      const env = { ...registry.env, ...user.env, PI_FIXTURE_STARTED_DIR: markers };
      const child = spawn(
        process.execPath,
        [PI_BIN, "--mode", "rpc", "--watch", "--plugin", "mode-rpc", "--model", "faux/faux-1", "--no-session"],
        { cwd: user.project, env, stdio: ["pipe", "pipe", "pipe"] },
      );
      const records = jsonLines(child.stdout);
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        await fileAppears(join(markers, "tool-bash-1.0.0"));
        child.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "run ls" })}\n`);
        expect((await records.next((r) => r.type === "tool_execution_end")).result.content[0].text).toBe(
          "fixture bash 1.0.0 would run: ls",
        );
        await records.next((r) => r.type === "agent_end");

        await registry.publish(writeFixturePackage("fake-bash", { name: "pi-fixture-bash-rpc", version: "1.1.0" }));
        expect((await piOk(["update", "--extensions"])).stdout).toContain("  npm:pi-fixture-bash-rpc 1.0.0 -> 1.1.0");
        expect(readFileSync(await fileAppears(join(markers, "tool-bash-1.1.0")), "utf8")).toBe("generation 2\n");

        child.stdin.write(`${JSON.stringify({ id: "p2", type: "prompt", message: "run ls again" })}\n`);
        expect(
          (await records.next((r) => r.type === "tool_execution_end" && r.toolCallId === "call_b")).result.content[0]
            .text,
        ).toBe("fixture bash 1.1.0 would run: ls");
        await records.next(
          (r) => r.type === "agent_end" && records.seen.filter((x) => x.type === "agent_end").length === 2,
        );
        child.stdin.end();
        expect(await exited).toBe(0);
        expect(stderr).toBe("");
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
    SLOW,
  );
});

/** The JSON lines of a stream (split on LF only, as pi's RPC clients do), with a wait for the first that matches. */
function jsonLines(stream: NodeJS.ReadableStream): { seen: any[]; next(match: (r: any) => boolean): Promise<any> } {
  const seen: any[] = [];
  let waiters: Array<{ match: (r: any) => boolean; resolve: (r: any) => void }> = [];
  let buffer = "";
  stream.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const record = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      seen.push(record);
      const waiting = waiters;
      waiters = [];
      for (const w of waiting) w.match(record) ? w.resolve(record) : waiters.push(w);
    }
  });
  return {
    seen,
    next(match) {
      const found = seen.find(match);
      return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

/** Resolves with `path` once the file exists, watching its folder (no polling). */
function fileAppears(path: string): Promise<string> {
  return new Promise((resolve) => {
    const watcher = watch(join(path, ".."), () => {
      if (existsSync(path)) {
        watcher.close();
        resolve(path);
      }
    });
    if (existsSync(path)) {
      watcher.close();
      resolve(path);
    }
  });
}
