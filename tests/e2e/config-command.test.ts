/**
 * `pi config` (pi 1.6.0's resource switchboard) against the built CLI: without a terminal it prints the
 * list; in tmux, Space switches the selected resource and the settings file gets pi's `-path` entry,
 * which the next run honours (the switched-off prompt template is no longer a command).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentHome, type AgentHome } from "./agent-home.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the pi config terminal test");

let user: AgentHome;
let tmux: TmuxServer | undefined;

beforeEach(() => {
  user = agentHome();
  mkdirSync(join(user.agent, "extensions"), { recursive: true });
  mkdirSync(join(user.agent, "skills", "my-skill"), { recursive: true });
  mkdirSync(join(user.agent, "prompts"), { recursive: true });
  writeFileSync(join(user.agent, "extensions", "hello.ts"), "export default function () {}\n");
  writeFileSync(
    join(user.agent, "skills", "my-skill", "SKILL.md"),
    "---\nname: my-skill\ndescription: A skill\n---\nbody\n",
  );
  writeFileSync(join(user.agent, "prompts", "review.md"), "---\ndescription: review\n---\nReview $1\n");
  mkdirSync(join(user.agent, "themes"), { recursive: true });
  writeFileSync(join(user.agent, "themes", "mine.json"), JSON.stringify({ name: "mine", colors: {} }));
});
afterEach(() => tmux?.killPanes());
afterAll(() => tmux?.close());

const settings = (): any => JSON.parse(readFileSync(join(user.agent, "settings.json"), "utf8"));

describe("pi config (built CLI)", () => {
  it("without a terminal prints the resources with their state and exits 0", async () => {
    writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ prompts: ["-prompts/review.md"] }));
    const run = await user.pi(["config"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        `Global Resources (${join(user.agent, "settings.json")})`,
        `  User (${user.agent}/)`,
        "    Extensions",
        "      [x] hello.ts",
        "    Skills",
        "      [x] my-skill",
        "    Prompts",
        "      [ ] review.md",
        "    Themes",
        "      [x] mine.json",
        "",
      ].join("\n"),
    );
  });

  it("refuses -l in an untrusted project and unknown options, one line each", async () => {
    const local = await user.pi(["config", "-l"]);
    expect([local.code, local.stderr]).toEqual([
      1,
      "Project is not trusted. Use --approve to modify local resource config.\n",
    ]);
    const bad = await user.pi(["config", "--nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('Unknown option --nope for "config". Usage: pi config [-l] [--approve|--no-approve]\n');
  });

  it.skipIf(!HAS_TMUX)(
    "in a terminal, Space switches the selected resource off in settings.json",
    { timeout: 60_000 },
    async () => {
      tmux ??= new TmuxServer();
      const pane = tmux.start({
        cwd: user.project,
        env: user.env,
        args: ["config"],
        width: 100,
        height: 30,
        watch: "screen",
      });
      await pane.waitFor("[x] review.md");
      // The selection starts on the first resource (hello.ts); two down is review.md... past the Skills heading.
      pane.keys("Down", "Down");
      pane.keys("Space");
      await pane.waitFor("[ ] review.md");
      expect(settings()).toEqual({ prompts: ["-prompts/review.md"] });
      // Typing filters; Space on the only match switches it back on with pi's `+path`.
      pane.type("review");
      await pane.waitFor((s) => s.includes("> review") && !s.includes("hello.ts"));
      pane.keys("Space");
      await pane.waitFor("[x] review.md");
      expect(settings()).toEqual({ prompts: ["+prompts/review.md"] });
      pane.keys("Escape");
      await pane.waitFor(/\[pi exited 0\][\s\S]*\[tty [^\]]*\]/, { all: true });
      expect(pane.ttyAfterExit()).toBe("icanon echo");
    },
  );

  it.skipIf(!HAS_TMUX)(
    "-l: Space cycles a user resource through pi's inherit, -, + in the project's settings",
    { timeout: 60_000 },
    async () => {
      mkdirSync(join(user.project, ".pi", "prompts"), { recursive: true });
      writeFileSync(join(user.project, ".pi", "prompts", "local.md"), "---\ndescription: local\n---\nLocal\n");
      tmux ??= new TmuxServer();
      const pane = tmux.start({
        cwd: user.project,
        env: user.env,
        args: ["config", "-l", "-a"],
        width: 100,
        height: 30,
        watch: "screen",
      });
      await pane.waitFor((s) => s.includes("Project Local Resources") && s.includes("[x] local.md"));
      const project = (): any => JSON.parse(readFileSync(join(user.project, ".pi", "settings.json"), "utf8"));
      const hello = join(user.agent, "extensions", "hello.ts");
      pane.keys("Space");
      await pane.waitFor("[-] hello.ts  project unload");
      expect(project().extensions).toEqual([`-${hello}`]);
      pane.keys("Space");
      await pane.waitFor("[+] hello.ts  project load");
      expect(project().extensions).toEqual([`+${hello}`]);
      pane.keys("Space");
      await pane.waitFor("[x] hello.ts");
      expect(project().extensions).toEqual([]);
      pane.keys("Escape");
      await pane.waitFor("[pi exited 0]", { all: true });
      // The global file was never written.
      expect(() => settings()).toThrow();
      const list = await user.pi(["config", "-l", "-a"]);
      expect(list.stdout).toContain("  Project (.pi/)\n    Prompts\n      [x] local.md\n");
    },
  );

  it("a switched-off prompt template and skill are left out of the next run", async () => {
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ prompts: ["-prompts/review.md"], skills: ["-skills/my-skill/SKILL.md"] }),
    );
    user.scriptFaux([{ content: "ok" }]);
    const run = await user.pi(["--mode", "rpc"], {
      input: `${JSON.stringify({ id: "1", type: "get_commands" })}\n`,
    });
    const response = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((m) => m.type === "response" && m.command === "get_commands");
    const names = (response.data.commands as any[]).map((c) => c.name);
    expect(names).not.toContain("review");
    expect(names).not.toContain("skill:my-skill");
    writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ prompts: [] }));
    const again = await user.pi(["--mode", "rpc"], { input: `${JSON.stringify({ id: "1", type: "get_commands" })}\n` });
    expect(again.stdout).toContain('"name":"review"');
    expect(again.stdout).toContain('"name":"skill:my-skill"');
  });
});
