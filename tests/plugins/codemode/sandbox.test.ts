/** The QuickJS sandbox on its own: what a script can and cannot reach, and every limit. */
import { describe, expect, it } from "vitest";
import {
  runSandboxed,
  type SandboxFunction,
  type SandboxLimits,
} from "../../../plugins/integrations/codemode/sandbox.js";

const LIMITS: SandboxLimits = {
  timeLimitMs: 2_000,
  memoryLimitBytes: 16 * 1024 * 1024,
  maxOutputBytes: 4_096,
  maxStackBytes: 256 * 1024,
  maxToolCalls: 1_000,
  maxConcurrentToolCalls: 16,
  maxArgumentBytes: 1024 * 1024,
};

function run(
  code: string,
  functions: Record<string, SandboxFunction> = {},
  limits: Partial<SandboxLimits> = {},
  signal?: AbortSignal,
) {
  return runSandboxed(code, functions, { ...LIMITS, ...limits }, signal);
}

describe("codemode sandbox", () => {
  it("has none of process, require, fetch, timers, import() or WebAssembly", async () => {
    const outcome = await run(`
      const seen = {};
      for (const name of ["process", "require", "fetch", "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "WebAssembly", "XMLHttpRequest", "Deno", "Bun", "std", "os", "module", "exports", "__dirname"]) seen[name] = typeof globalThis[name];
      let imported;
      try { await import("fs"); imported = "loaded"; } catch (e) { imported = e.message; }
      return { seen, imported };
    `);
    expect(outcome.error).toBeUndefined();
    const { seen, imported } = JSON.parse(outcome.returned!);
    expect(Object.values(seen).every((t) => t === "undefined")).toBe(true);
    expect(Object.keys(seen)).toHaveLength(16);
    expect(imported).toBe("modules cannot be loaded in the codemode sandbox; call the functions on `tools` instead");
  });

  it("a static import is a syntax error, reported in one line", async () => {
    const outcome = await run(`import fs from "fs";\nreturn 1;`);
    expect(outcome.error).toMatch(/^SyntaxError: /);
  });

  it("interrupts while(true){} at the time limit with a clear error", async () => {
    const started = Date.now();
    const outcome = await run("while (true) {}", {}, { timeLimitMs: 300 });
    const elapsed = Date.now() - started;
    expect(outcome.error).toBe("the script was stopped at its time limit of 300 ms");
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(5_000);
  });

  it("a catch block cannot swallow the interrupt", async () => {
    const outcome = await run(
      "for (;;) { try { while (true) {} } catch (e) { console.log('caught', e); } }",
      {},
      { timeLimitMs: 200 },
    );
    expect(outcome.error).toBe("the script was stopped at its time limit of 200 ms");
  });

  it("stops a script that only waits on a slow tool at the time limit", async () => {
    const never = () => new Promise<string>(() => {});
    const outcome = await run("await tools.slow({}); return 'never';", { slow: never }, { timeLimitMs: 200 });
    expect(outcome.error).toBe("the script was stopped at its time limit of 200 ms");
  });

  it("allocating past the memory limit fails inside the sandbox, and the next run works", async () => {
    const outcome = await run(
      "const hog = [];\nfor (let i = 0; ; i++) hog.push({ i, text: 'item ' + i });",
      {},
      { memoryLimitBytes: 8 * 1024 * 1024 },
    );
    expect(outcome.error).toBe("InternalError: out of memory (the sandbox's memory limit is 8 MB) (line 2)");
    const caught = await run(
      "try { const hog = []; for (let i = 0; ; i++) hog.push({ i }); } catch (e) { return 'caught: ' + e.message; }",
      {},
      { memoryLimitBytes: 8 * 1024 * 1024 },
    );
    expect(caught.returned).toBe("caught: out of memory");
    expect((await run("return 6 * 7")).returned).toBe("42");
  });

  it("deep recursion fails inside the sandbox instead of overflowing the host", async () => {
    const outcome = await run("function down(n) { return down(n + 1) + 1; }\nreturn down(0);");
    expect(outcome.error).toBe("InternalError: stack overflow (line 1)");
    expect((await run("return 'still fine'")).returned).toBe("still fine");
  });

  it("captures console output, renders the return value, and cuts output at the limit", async () => {
    const outcome = await run("console.log('a', 1, {b: [2]}); console.error('oops'); return {ok: true};");
    expect(outcome).toEqual({ output: 'a 1 {"b":[2]}\noops', outputTruncated: false, returned: '{\n  "ok": true\n}' });
    const flood = await run(
      "for (let i = 0; i < 10000; i++) console.log('line ' + i); return 'done';",
      {},
      { maxOutputBytes: 100 },
    );
    expect(flood.outputTruncated).toBe(true);
    expect(Buffer.byteLength(flood.output)).toBeLessThanOrEqual(100);
    expect(flood.output.startsWith("line 0\nline 1\n")).toBe(true);
    expect(flood.returned).toBe("done");
  });

  it("calls host functions with their argument and awaits them; a rejection is a catchable Error", async () => {
    const seen: unknown[] = [];
    const functions: Record<string, SandboxFunction> = {
      double: async (args) => (seen.push(args), String((args as { n: number }).n * 2)),
      broken: async () => {
        throw new Error("the tool broke");
      },
    };
    const outcome = await run(
      `let total = 0;
       for (let n = 1; n <= 50; n++) total += Number(await tools.double({ n }));
       const parallel = await Promise.all([1, 2, 3].map((n) => tools.double({ n })));
       let message;
       try { await tools.broken({}); } catch (e) { message = e instanceof Error && e.message; }
       return { total, parallel, message };`,
      functions,
    );
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual({
      total: 2550,
      parallel: ["2", "4", "6"],
      message: "the tool broke",
    });
    expect(seen).toHaveLength(53);
    expect(seen[0]).toEqual({ n: 1 });
  });

  it("an uncaught error names its line; a thrown non-Error is shown too", async () => {
    expect((await run("const x = 1;\nnull.boom;")).error).toMatch(/^TypeError: .* \(line 2\)$/);
    expect((await run("throw 'plain';")).error).toBe("uncaught plain");
  });

  it("a script waiting on a promise nothing can settle ends at once, not at the time limit", async () => {
    const started = Date.now();
    const outcome = await run("await new Promise(() => {});", {}, { timeLimitMs: 10_000 });
    expect(outcome.error).toBe(
      "the script is waiting for a promise that nothing can settle (only tool calls settle promises here; there are no timers)",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("an abort stops the script, running or waiting", async () => {
    const controller = new AbortController();
    const pending = run(
      "await tools.wait({}); while (true) {}",
      { wait: async () => (controller.abort(), "go") },
      { timeLimitMs: 10_000 },
      controller.signal,
    );
    expect((await pending).error).toBe("the script was aborted");
  });
});
