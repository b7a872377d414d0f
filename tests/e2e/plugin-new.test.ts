/**
 * Plugin authoring, end to end: `pi plugin new` (built CLI) writes a plugin folder whose own vitest test
 * passes — and fails when the plugin breaks — and whose plugin runs in `pi -p`; the worked example of
 * docs/plugins.md passes its own test, and the doc's code blocks are the example's code.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { agentHome, sessionLines } from "./agent-home.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");

/** Runs vitest once in `dir` (its own vitest.config.mjs applies), as `npx vitest run` there would. */
function runVitest(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, "run", "--root", dir], {
      cwd: dir,
      env: { ...process.env, CI: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The module specifiers a source file imports. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/^import\s[^;]*?from\s*"([^"]+)";/gm)].map((m) => m[1]!);
}

describe("pi plugin new (built CLI)", () => {
  it("scaffolds a folder: a plugin importing only pi-host, no package.json, a test, a vitest config and a README", async () => {
    const user = agentHome();
    const parent = mkdtempSync(join(tmpdir(), "pi-new-"));
    const run = await user.pi(["plugin", "new", "my-tool", "--dir", parent]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dir = join(parent, "my-tool");
    expect(run.stdout).toContain(`Created ${dir}\n`);
    expect(run.stdout).toContain(`Test it:  cd ${dir} && npx vitest run`);
    expect(readdirSync(dir).sort()).toEqual(["README.md", "index.ts", "my-tool.test.ts", "vitest.config.mjs"]);
    expect(importsOf(readFileSync(join(dir, "index.ts"), "utf8"))).toEqual(["pi-host"]);
    expect(readFileSync(join(dir, "vitest.config.mjs"), "utf8")).toContain(
      JSON.stringify(join(ROOT, "dist", "api.js")),
    );
  });

  it("acceptance: the generated test passes with the project's vitest, and fails once the plugin breaks", async () => {
    const user = agentHome();
    const parent = mkdtempSync(join(tmpdir(), "pi-new-"));
    expect((await user.pi(["plugin", "new", "greeter", "--dir", parent])).code).toBe(0);
    const dir = join(parent, "greeter");
    const passing = await runVitest(dir);
    expect(passing.output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(passing.code).toBe(0);

    const index = join(dir, "index.ts");
    writeFileSync(index, readFileSync(index, "utf8").replace(`default: "Hello"`, `default: "Howdy"`));
    const failing = await runVitest(dir);
    expect(failing.output).toMatch(/Tests\s+2 failed \| 1 passed \(3\)/);
    expect(failing.code).toBe(1);
  }, 60_000);

  it("the generated plugin runs in pi -p: the model calls its tool", async () => {
    const user = agentHome();
    expect((await user.pi(["plugin", "new", "greeter"])).code).toBe(0);
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "call_greet", name: "greeter", arguments: { name: "Ada" } }] },
      { content: "Greeted." },
    ]);
    const run = await user.pi(["-p", "--plugin", "./greeter", "--model", "faux/faux-1", "greet Ada"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Greeted.\n");
    const results = sessionLines(user.sessionFiles()[0]!).filter(
      (e) => e.type === "message" && e.message.role === "toolResult",
    );
    expect(results.map((e) => e.message.content)).toEqual([[{ type: "text", text: "Hello, Ada!" }]]);
  });

  it("refuses bad input in one line with exit 2, writing nothing", async () => {
    const user = agentHome();
    const parent = mkdtempSync(join(tmpdir(), "pi-new-"));
    mkdirSync(join(parent, "taken"));
    writeFileSync(join(parent, "taken", "index.ts"), "mine");
    const cases: Array<[string[], string]> = [
      [
        ["plugin", "new", "My_Tool", "--dir", parent],
        `pi: plugin name "My_Tool" must be lower-case words joined by "-" (e.g. my-tool): it becomes the plugin id and the folder name\n`,
      ],
      [
        ["plugin", "new", "taken", "--dir", parent],
        `pi: ${join(parent, "taken")} already exists and is not empty; choose another name or --dir\n`,
      ],
      [["plugin", "new", "x", "--dir"], `pi: --dir needs a folder: pi plugin new <name> --dir <folder>\n`],
      [["plugin", "new"], `pi: pi plugin new takes one <name>: pi plugin new <name>\n`],
      [["plugin", "new", "a", "b"], `pi: pi plugin new takes one <name>, not 2: pi plugin new <name>\n`],
      [["plugin", "new", "a", "-l"], `pi: unknown flag -l for "pi plugin new"; it takes --dir <folder>\n`],
    ];
    for (const [args, stderr] of cases) {
      const run = await user.pi(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toBe(stderr);
      expect(run.stdout).toBe("");
    }
    expect(readdirSync(parent)).toEqual(["taken"]);
    expect(existsSync(join(user.project, "x"))).toBe(false);

    // A folder that cannot be made is a failure of the run (exit 1), still one line.
    const notAFolder = await user.pi(["plugin", "new", "x", "--dir", join(parent, "taken", "index.ts")]);
    expect(notAFolder.code).toBe(1);
    expect(notAFolder.stderr).toBe(`pi: ENOTDIR: not a directory, mkdir '${join(parent, "taken", "index.ts", "x")}'\n`);
  });

  it("pi plugin (or --help) prints the usage of both commands", async () => {
    const user = agentHome();
    for (const args of [["plugin"], ["plugin", "--help"], ["plugin", "new", "--help"]]) {
      const run = await user.pi(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("pi plugin new <name> [--dir <folder>]");
      expect(run.stdout).toContain("pi plugin eject <id> [-l]");
    }
  });
});

describe("the worked example of docs/plugins.md (examples/plugins/word-count)", () => {
  it("passes its own test with the project's vitest", async () => {
    const run = await runVitest(join(ROOT, "examples", "plugins", "word-count"));
    expect(run.output).toMatch(/Tests\s+5 passed \(5\)/);
    expect(run.code).toBe(0);
  }, 60_000);

  it("every code block the doc marks as from the example is the example's code, verbatim", () => {
    const doc = readFileSync(join(ROOT, "docs", "plugins.md"), "utf8");
    const blocks = [...doc.matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    for (const [, file, code] of blocks) {
      expect(file!.startsWith("examples/plugins/word-count/"), file).toBe(true);
      const source = readFileSync(join(ROOT, file!), "utf8");
      expect(source.includes(code!), `docs/plugins.md block from ${file} no longer matches it:\n${code}`).toBe(true);
    }
    // Every marker is followed by a code block (a marker left dangling would check nothing).
    expect(doc.match(/<!-- example: /g)).toHaveLength(blocks.length);
  });
});
