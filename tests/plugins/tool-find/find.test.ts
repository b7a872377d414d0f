import { join } from "node:path";
import { TypeGuard } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLocks, ToolContract, type ToolResult } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import { createFindTool, type FindBackend, type FindDetails } from "../../../plugins/tools/tool-find/find-tool.js";
import findPlugin from "../../../plugins/tools/tool-find/index.js";
import { requireSystemTool } from "../../support/system-tools.js";
import { findFixture, PROJECT_FILES, tempDir, writeTree } from "./fixture-tree.js";

/** The "native" backend runs fd; without it only the Node backend is tested (and the skip is printed). */
const HAS_FD = requireSystemTool(
  "fd (fd or fdfind)",
  ["fd", "fdfind"],
  "the find tests of the native backend; the Node backend is still tested",
);
const BACKENDS_HERE = HAS_FD ? (["native", "node"] as const) : (["node"] as const);

type FindResult = ToolResult<FindDetails | undefined>;

function find(
  backend: FindBackend,
  cwd: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<FindResult> {
  return createFindTool({ backend }).execute("call", params as any, signal, undefined, {
    cwd,
    withFileLock: createFileLocks(),
  });
}

function textOf(result: FindResult): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

/** Everything under the project that is not ignored: sorted folder by folder, folders ending in "/". */
const EVERYTHING = [
  ".gitignore",
  ".hidden/",
  ".hidden/note.txt",
  "README.md",
  "a-b.txt",
  "a.txt",
  "docs/",
  "docs/readme.md",
  "docs/x/",
  "docs/x/y/",
  "secret-ok.txt",
  "src/",
  "src/.gitignore",
  "src/deep/",
  "src/deep/util.spec.ts",
  "src/keep.tmp",
  "src/lib/",
  "src/lib/generated",
  "src/main.ts",
  "sub/",
  "sub/build/",
  "sub/build/keep.txt",
];

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

describe("tool-find plugin", () => {
  it("boots in a kernel and provides the find tool under key find with pi's parameters", async () => {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      {
        id: "tool-find",
        source: { kind: "inline", label: "tool-find", definition: findPlugin },
        config: { backend: "node" },
      },
    ]);
    expect(boot.errors).toEqual([]);
    const handles = kernel.useAll(ToolContract).list();
    expect(handles.map((h) => h.key)).toEqual(["tool-find#find"]);
    const tool = handles[0]!.peek()!;
    expect(tool.name).toBe("find");
    expect(TypeGuard.IsObject(tool.parameters)).toBe(true);
    expect(Object.keys(tool.parameters.properties)).toEqual(["pattern", "path", "limit"]);
    expect(tool.parameters.required).toEqual(["pattern"]);
    const { project } = findFixture();
    const result: FindResult = await handles[0]!.call("execute", "id", { pattern: "*.md" }, undefined, undefined, {
      cwd: project,
      withFileLock: createFileLocks(),
    });
    expect(textOf(result)).toBe("README.md\ndocs/readme.md");
  });
});

for (const backend of ["native", "node"] as const)
  describe.skipIf(backend === "native" && !HAS_FD)(`find tool (${backend} backend)`, () => {
    it("lists every path that is not ignored, sorted, relative to the search folder", async () => {
      const { project } = findFixture();
      const result = await find(backend, project, { pattern: "*" });
      expect(textOf(result)).toBe(EVERYTHING.join("\n"));
      expect(result.details).toBeUndefined();
    });

    it("matches names, or full paths when the pattern has a slash; lowercase patterns ignore case", async () => {
      const { project } = findFixture();
      expect(textOf(await find(backend, project, { pattern: "*.ts" }))).toBe("src/deep/util.spec.ts\nsrc/main.ts");
      expect(textOf(await find(backend, project, { pattern: "**/*.spec.ts" }))).toBe("src/deep/util.spec.ts");
      expect(textOf(await find(backend, project, { pattern: "src/*" }))).toBe(
        "src/.gitignore\nsrc/deep/\nsrc/keep.tmp\nsrc/lib/\nsrc/main.ts",
      );
      expect(textOf(await find(backend, project, { pattern: "build" }))).toBe("sub/build/");
      expect(textOf(await find(backend, project, { pattern: "readme.md" }))).toBe("README.md\ndocs/readme.md");
      expect(textOf(await find(backend, project, { pattern: "README.md" }))).toBe("README.md");
      expect(textOf(await find(backend, project, { pattern: "*.{tmp,spec.ts}" }))).toBe(
        "src/deep/util.spec.ts\nsrc/keep.tmp",
      );
    });

    it("searches a sub-folder given by path, relative to it", async () => {
      const { project } = findFixture();
      expect(textOf(await find(backend, project, { pattern: "*", path: "src" }))).toBe(
        ".gitignore\ndeep/\ndeep/util.spec.ts\nkeep.tmp\nlib/\nlib/generated\nmain.ts",
      );
      expect(textOf(await find(backend, "/", { pattern: "*.ts", path: join(project, "src", "deep") }))).toBe(
        "util.spec.ts",
      );
    });

    it("says so when nothing matches", async () => {
      const { project } = findFixture();
      const result = await find(backend, project, { pattern: "*.nothing" });
      expect(textOf(result)).toBe("No files found matching pattern");
      expect(result.details).toBeUndefined();
    });

    it("stops at the limit and says how to see more", async () => {
      const { project } = findFixture();
      const result = await find(backend, project, { pattern: "*", limit: 3 });
      expect(textOf(result)).toBe(
        `${EVERYTHING.slice(0, 3).join("\n")}\n\n[3 results limit reached. Use limit=6 for more, or refine pattern]`,
      );
      expect(result.details).toEqual({ resultLimitReached: 3 });
      const exact = await find(backend, project, { pattern: "*", limit: EVERYTHING.length });
      expect(exact.details).toBeUndefined();
    });

    it("defaults to 1,000 results and cuts the list at 50 KB", async () => {
      const root = tempDir("pi-tool-find-big-");
      const files: Record<string, string> = {};
      for (let i = 0; i < 1100; i++) files[`${"f".repeat(80)}-${String(i).padStart(4, "0")}.txt`] = "";
      writeTree(root, files);
      const result = await find(backend, root, { pattern: "*.txt" });
      const [body, notes] = textOf(result).split("\n\n[");
      const lines = body!.split("\n");
      expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(50 * 1024);
      expect(lines[0]).toBe(`${"f".repeat(80)}-0000.txt`);
      expect(lines.length).toBe(Math.floor((50 * 1024 + 1) / 90));
      expect(notes).toBe(
        "1000 results limit reached. Use limit=2000 for more, or refine pattern. 50.0KB limit reached]",
      );
      expect(result.details).toMatchObject({
        resultLimitReached: 1000,
        truncation: { truncated: true, truncatedBy: "bytes", totalLines: 1000 },
      });
    });

    it("reports a missing path, a file path and bad parameters in one line", async () => {
      const { project } = findFixture();
      await expect(find(backend, project, { pattern: "*", path: "missing" })).rejects.toThrow(
        `Path not found: ${join(project, "missing")}`,
      );
      await expect(find(backend, project, { pattern: "*", path: "a.txt" })).rejects.toThrow(
        `Not a directory: ${join(project, "a.txt")}`,
      );
      await expect(find(backend, project, { pattern: "" })).rejects.toThrow("find: `pattern` must be a non-empty glob");
      await expect(find(backend, project, { pattern: "{a,b" })).rejects.toThrow('Invalid glob "{a,b": unclosed "{"');
    });

    it("rejects when aborted", async () => {
      const { project } = findFixture();
      const controller = new AbortController();
      controller.abort();
      await expect(find(backend, project, { pattern: "*" }, controller.signal)).rejects.toThrow("Operation aborted");
    });
  });

describe("find backends", () => {
  const queries: Array<Record<string, unknown>> = [
    { pattern: "*" },
    { pattern: "**" },
    { pattern: "*", limit: 7 },
    { pattern: "*.txt" },
    { pattern: "*.TXT" },
    { pattern: "src/**" },
    { pattern: "src/**/*.ts" },
    { pattern: "docs/*" },
    { pattern: "?.txt" },
    { pattern: "[ab]*.txt" },
    { pattern: "[!a]*" },
    { pattern: "*generated*" },
    { pattern: "*", path: "sub" },
    { pattern: "*", path: "build" },
    { pattern: "*", path: "src/generated" },
    { pattern: ".*" },
  ];

  it.skipIf(!HAS_FD).each(queries)("native and node agree on %j", async (params) => {
    const { project } = findFixture();
    const native = await find("native", project, params);
    const node = await find("node", project, params);
    expect(textOf(node)).toBe(textOf(native));
    expect(node.details).toEqual(native.details);
  });

  it("auto respects .gitignore outside a git repository too", async () => {
    const project = tempDir("pi-tool-find-norepo-");
    writeTree(project, PROJECT_FILES);
    const auto = await find("auto", project, { pattern: "*" });
    expect(textOf(auto)).toBe([...EVERYTHING.slice(0, 10), "notes.skip", ...EVERYTHING.slice(10)].join("\n"));
  });

  it("falls back to the Node search when fd is not on PATH, and 'native' then says so", async () => {
    const { project } = findFixture();
    const savedPath = process.env.PATH;
    process.env.PATH = "";
    try {
      expect(textOf(await find("auto", project, { pattern: "*" }))).toBe(EVERYTHING.join("\n"));
      await expect(find("native", project, { pattern: "*" })).rejects.toThrow(
        'fd (fd or fdfind) is not on PATH; set the find backend to "auto" or "node"',
      );
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("aborts searches when the plugin generation's lifetime ends", async () => {
    const { project } = findFixture();
    const lifetime = new AbortController();
    lifetime.abort();
    for (const backend of BACKENDS_HERE) {
      const tool = createFindTool({ backend, lifetime: lifetime.signal });
      await expect(
        tool.execute("call", { pattern: "*" }, undefined, undefined, { cwd: project, withFileLock: createFileLocks() }),
      ).rejects.toThrow("Operation aborted");
    }
  });
});
