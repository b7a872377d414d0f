import { mkdtempSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { TypeGuard } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLocks, ToolContract, type ToolResult } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import { createGrepTool, type GrepBackend, type GrepDetails } from "../../../plugins/tools/tool-grep/grep-tool.js";
import grepPlugin from "../../../plugins/tools/tool-grep/index.js";
import { resolveToCwd } from "../../../kit/index.js";
import { requireSystemTool } from "../../support/system-tools.js";
import { grepFixture, writeTree } from "./fixture-tree.js";

/** The "native" backend runs ripgrep; without it only the Node backend is tested (and the skip is printed). */
const HAS_RG = requireSystemTool(
  "ripgrep (rg)",
  ["rg"],
  "the grep tests of the native backend; the Node backend is still tested",
);
const BACKENDS_HERE = HAS_RG ? (["native", "node"] as const) : (["node"] as const);

type GrepResult = ToolResult<GrepDetails | undefined>;

function grep(
  backend: GrepBackend,
  cwd: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<GrepResult> {
  return createGrepTool({ backend }).execute("call", params as any, signal, undefined, {
    cwd,
    withFileLock: createFileLocks(),
  });
}

function textOf(result: GrepResult): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

const LONG_LINE = `long.txt:1: needle ${"x".repeat(493)}... [truncated]`;

/** Every "needle" rg finds in the fixture: .gitignore'd, binary, .git/ and parent-ignored files are absent. */
const ALL_NEEDLES = [
  ".hidden/note.txt:1: needle in a hidden folder",
  "a-b.txt:1: a needle with a dash",
  "a.txt:1: needle one",
  "crlf.txt:2: needle crlf",
  "docs/readme.md:1: needle in docs",
  LONG_LINE,
  "secret-ok.txt:1: needle re-included",
  "src/deep/util.spec.ts:1: describe('needle', () => {});",
  "src/keep.tmp:1: needle kept tmp",
  "src/lib/generated:1: needle in a file named generated",
  "src/main.ts:1: const needle = 1;",
  "sub/build/keep.txt:1: needle in a nested build folder",
];

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

describe("tool-grep plugin", () => {
  it("boots in a kernel and provides the grep tool under key grep with pi's parameters", async () => {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      {
        id: "tool-grep",
        source: { kind: "inline", label: "tool-grep", definition: grepPlugin },
        config: { backend: "node" },
      },
    ]);
    expect(boot.errors).toEqual([]);
    const handles = kernel.useAll(ToolContract).list();
    expect(handles.map((h) => h.key)).toEqual(["tool-grep#grep"]);
    const tool = handles[0]!.peek()!;
    expect(tool.name).toBe("grep");
    expect(TypeGuard.IsObject(tool.parameters)).toBe(true);
    expect(Object.keys(tool.parameters.properties)).toEqual([
      "pattern",
      "path",
      "glob",
      "ignoreCase",
      "literal",
      "context",
      "limit",
    ]);
    expect(tool.parameters.required).toEqual(["pattern"]);
    const { project } = grepFixture();
    const result: GrepResult = await handles[0]!.call(
      "execute",
      "id",
      { pattern: "needle one" },
      undefined,
      undefined,
      { cwd: project, withFileLock: createFileLocks() },
    );
    expect(textOf(result)).toBe("a.txt:1: needle one");
  });

  it("refuses an unknown backend in its config", async () => {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      {
        id: "tool-grep",
        source: { kind: "inline", label: "tool-grep", definition: grepPlugin },
        config: { backend: "fast" },
      },
    ]);
    expect(boot.ok).toBe(false);
    expect(boot.configErrors.map((e) => e.pluginId)).toEqual(["tool-grep"]);
  });
});

for (const backend of ["native", "node"] as const)
  describe.skipIf(backend === "native" && !HAS_RG)(`grep tool (${backend} backend)`, () => {
    it("finds matches, sorted by path, respecting root, nested and parent .gitignore files", async () => {
      const { project } = grepFixture();
      const result = await grep(backend, project, { pattern: "needle" });
      expect(textOf(result)).toBe(
        `${ALL_NEEDLES.join("\n")}\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`,
      );
      expect(result.details).toEqual({ linesTruncated: true });
    });

    it('answers "No matches found" when nothing matches', async () => {
      const { project } = grepFixture();
      const result = await grep(backend, project, { pattern: "no such text anywhere" });
      expect(textOf(result)).toBe("No matches found");
      expect(result.details).toBeUndefined();
    });

    it("stops at the limit and says how to see more", async () => {
      const { project } = grepFixture();
      const result = await grep(backend, project, { pattern: "needle", limit: 3 });
      expect(textOf(result)).toBe(
        `${ALL_NEEDLES.slice(0, 3).join("\n")}\n\n[3 matches limit reached. Use limit=6 for more, or refine pattern]`,
      );
      expect(result.details).toEqual({ matchLimitReached: 3 });
      const exact = await grep(backend, project, { pattern: "needle", limit: ALL_NEEDLES.length });
      expect(exact.details).toEqual({ linesTruncated: true });
    });

    it("defaults to 100 matches and cuts the output at 50 KB", async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-big-")));
      writeTree(root, {
        "many.txt": Array.from({ length: 1500 }, (_, i) => `match ${i + 1} ${"y".repeat(90)}`).join("\n"),
      });
      const defaultLimit = await grep(backend, root, { pattern: "match" });
      expect(textOf(defaultLimit).split("\n\n[")[0]!.split("\n")).toHaveLength(100);
      expect(defaultLimit.details?.matchLimitReached).toBe(100);
      const big = await grep(backend, root, { pattern: "match", limit: 1000 });
      const [body, notes] = textOf(big).split("\n\n[");
      expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(50 * 1024);
      expect(body!.split("\n").at(-1)).toMatch(/^many\.txt:\d+: match \d+ y{90}$/);
      expect(notes).toBe(
        "1000 matches limit reached. Use limit=2000 for more, or refine pattern. 50.0KB limit reached]",
      );
      expect(big.details?.truncation).toMatchObject({ truncated: true, truncatedBy: "bytes", totalLines: 1000 });
    });

    it("filters files with a glob relative to the searched folder; a glob whitelists ignored files", async () => {
      const { project } = grepFixture();
      expect(textOf(await grep(backend, project, { pattern: "needle", glob: "*.ts" }))).toBe(
        ["src/deep/util.spec.ts:1: describe('needle', () => {});", "src/main.ts:1: const needle = 1;"].join("\n"),
      );
      expect(textOf(await grep(backend, project, { pattern: "needle", glob: "**/*.spec.ts" }))).toBe(
        "src/deep/util.spec.ts:1: describe('needle', () => {});",
      );
      expect(textOf(await grep(backend, project, { pattern: "needle", glob: "*.log" }))).toBe(
        "app.log:1: needle in a log",
      );
      expect(
        textOf(await grep(backend, join(project, "src"), { pattern: "needle", glob: "deep/*.ts", path: "." })),
      ).toBe("deep/util.spec.ts:1: describe('needle', () => {});");
    });

    it("supports ignoreCase, literal and context lines", async () => {
      const { project } = grepFixture();
      expect(textOf(await grep(backend, project, { pattern: "NEEDLE T", ignoreCase: true }))).toBe(
        "a.txt:3: Needle two",
      );
      expect(textOf(await grep(backend, project, { pattern: "a.c", literal: true }))).toBe(
        "src/main.ts:2: const a.c = 2;",
      );
      expect(textOf(await grep(backend, project, { pattern: "a.c =", path: "src/main.ts" }))).toBe(
        "main.ts:2: const a.c = 2;\nmain.ts:3: const abc = 3;",
      );
      expect(
        textOf(await grep(backend, project, { pattern: "needle", path: "a.txt", ignoreCase: true, context: 1 })),
      ).toBe("a.txt:1: needle one\na.txt-2- nothing here\na.txt:3: Needle two");
      // Overlapping context blocks print each line once; a match inside another's context stays a match.
      expect(textOf(await grep(backend, project, { pattern: "a.c", path: "src", context: 5 }))).toBe(
        "main.ts-1- const needle = 1;\nmain.ts:2: const a.c = 2;\nmain.ts:3: const abc = 3;",
      );
    });

    it("resolves ~, @ and relative paths against ctx.cwd and reports a missing path", async () => {
      expect(resolveToCwd("~", "/work")).toBe(homedir());
      expect(resolveToCwd("~/notes", "/work")).toBe(join(homedir(), "notes"));
      expect(resolveToCwd("@src/main.ts", "/work")).toBe("/work/src/main.ts");
      expect(resolveToCwd("/abs", "/work")).toBe("/abs");
      const { project } = grepFixture();
      expect(textOf(await grep(backend, project, { pattern: "needle one", path: "@a.txt" }))).toBe(
        "a.txt:1: needle one",
      );
      await expect(grep(backend, project, { pattern: "x", path: "missing" })).rejects.toThrow(
        `Path not found: ${join(project, "missing")}`,
      );
      expect(textOf(await grep(backend, "/", { pattern: "needle one", path: project }))).toBe("a.txt:1: needle one");
    });

    it("rejects when aborted", async () => {
      const { project } = grepFixture();
      const controller = new AbortController();
      controller.abort();
      await expect(grep(backend, project, { pattern: "needle" }, controller.signal)).rejects.toThrow(
        "Operation aborted",
      );
    });
  });

describe("grep backends", () => {
  const queries: Array<Record<string, unknown>> = [
    { pattern: "needle" },
    { pattern: "needle", limit: 5 },
    { pattern: "^const [a-z]+ = \\d;$" },
    { pattern: "NEEDLE", ignoreCase: true },
    { pattern: "(", literal: true },
    { pattern: "needle", glob: "src/**" },
    { pattern: "needle", glob: "!*.txt" },
    { pattern: "needle", glob: "*.{md,ts}" },
    { pattern: "needle", path: "src", context: 2 },
    { pattern: "needle", path: "docs" },
    { pattern: "needle", path: "build" },
    { pattern: "needle", path: "src/generated" },
    { pattern: "needle", path: "crlf.txt", context: 1 },
    { pattern: "e", limit: 1000 },
  ];

  it.skipIf(!HAS_RG).each(queries)("native and node agree on %j", async (params) => {
    const { project } = grepFixture();
    const native = await grep("native", project, params);
    const node = await grep("node", project, params);
    expect(textOf(node)).toBe(textOf(native));
    expect(node.details).toEqual(native.details);
  });

  it("auto respects .gitignore outside a git repository too, like both backends", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-norepo-")));
    writeTree(root, {
      ".gitignore": "*.log\nbuild/\n",
      "a.txt": "needle\n",
      "b.log": "needle\n",
      "build/c.txt": "needle\n",
      "src/d.txt": "needle\n",
    });
    for (const backend of ["auto", ...BACKENDS_HERE] as const) {
      expect(textOf(await grep(backend, root, { pattern: "needle" }))).toBe("a.txt:1: needle\nsrc/d.txt:1: needle");
    }
  });

  it("falls back to the Node search when rg is not on PATH, and 'native' then says so", async () => {
    const { project } = grepFixture();
    const savedPath = process.env.PATH;
    process.env.PATH = "";
    try {
      const auto = await grep("auto", project, { pattern: "needle" });
      expect(textOf(auto).split("\n").slice(0, ALL_NEEDLES.length)).toEqual(ALL_NEEDLES);
      await expect(grep("native", project, { pattern: "needle" })).rejects.toThrow(
        'ripgrep (rg) is not on PATH; set the grep backend to "auto" or "node"',
      );
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("both read .gitignore escapes, comments and trailing spaces alike", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-escapes-")));
    writeTree(root, {
      ".git/HEAD": "",
      ".gitignore": "\\#hash.txt\n\\!bang.txt\ntrailing.txt   \n# comment.txt\n\n",
      "#hash.txt": "needle\n",
      "!bang.txt": "needle\n",
      "trailing.txt": "needle\n",
      "# comment.txt": "needle\n",
      "kept.txt": "needle\n",
    });
    for (const backend of BACKENDS_HERE) {
      expect(textOf(await grep(backend, root, { pattern: "needle" }))).toBe(
        "# comment.txt:1: needle\nkept.txt:1: needle",
      );
    }
  });

  it("aborts searches when the plugin generation's lifetime ends", async () => {
    const { project } = grepFixture();
    const lifetime = new AbortController();
    lifetime.abort();
    for (const backend of BACKENDS_HERE) {
      const tool = createGrepTool({ backend, lifetime: lifetime.signal });
      await expect(
        tool.execute("call", { pattern: "needle" }, undefined, undefined, {
          cwd: project,
          withFileLock: createFileLocks(),
        }),
      ).rejects.toThrow("Operation aborted");
    }
  });

  it("reports an invalid regular expression in one line", async () => {
    const { project } = grepFixture();
    await expect(grep("node", project, { pattern: "(" })).rejects.toThrow(
      /^Invalid regex pattern: .*Unterminated group$/,
    );
    if (HAS_RG)
      await expect(grep("native", project, { pattern: "(" })).rejects.toThrow(/^regex parse error: .*unclosed group$/);
  });
});
