/**
 * The Node built-ins the cold paths of the built `pi` load. Each built-in costs resident memory whether
 * it is used or not (bench/RESULTS.md, 2026-12-04 "fewer built-ins"), so `pi --version` and `pi --help`
 * load almost nothing beyond what Node itself loads, and a one-turn `pi -p` against an http:// model
 * server loads only what that turn needs. A top-level `import ... from "node:child_process"` (or crypto,
 * readline, https...) in any module of a chunk these runs load makes the test fail; such a built-in is
 * loaded where it is used instead (kit/process/node-builtins.ts).
 *
 * Only the public module names are compared: the `internal/...` and `_http_...` modules are what those
 * public modules require, and change from one Node release to the next.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { textStream } from "../fixtures/sse/openai-completions/text.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { runPiRecordingBuiltins } from "./record-modules.js";

/** What Node loads for any ES module program before it runs a line of it (Node 20 and 22). */
const NODE_ITSELF = [
  "async_hooks",
  "buffer",
  "diagnostics_channel",
  "events",
  "fs",
  "module",
  "path",
  "querystring",
  "timers",
  "url",
  "util",
];

/**
 * `pi --version` and `pi --help`: Node's own, plus what writing to stdout needs (stream, string_decoder;
 * and net, since here stdout is a pipe, which Node opens as a net.Socket), and what hosts/cli-start.ts
 * uses before anything else: `os` (Node 22's compile cache, turned on there, finds its folder with it)
 * and `v8` (hosts/young-generation.ts keeps the young generation small).
 */
const VERSION_ALLOWED = [...NODE_ITSELF, "net", "os", "stream", "stream/promises", "string_decoder", "v8"];

/**
 * A one-turn `pi -p` that writes its session: the above, plus `fs/promises` (settings, resources and the
 * session file are read and written), `http` (the model server is http://, and kit's nodeFetch sends
 * over node:http: no https, no tls, no undici), and `crypto` (the session id, the entry ids and the run
 * id are random). Not allowed, for example: child_process (only a tool or a `!` command starts a
 * process), readline (reading fd's output line by line), https, tls, zlib, worker_threads, perf_hooks,
 * dgram.
 */
const PRINT_ALLOWED = [...VERSION_ALLOWED, "fs/promises", "http", "crypto"];

/** The public built-in names among a run's loaded modules, sorted. */
function publicNames(builtins: string[]): string[] {
  return [...new Set(builtins.filter((name) => !name.startsWith("internal/") && !name.startsWith("_")))].sort();
}

let server: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  server = await new MockLlmServer().start();
  user = agentHome();
});
afterAll(async () => {
  await server.close();
});

describe("Node built-ins on the cold paths (built CLI)", () => {
  for (const flag of ["--version", "--help"]) {
    it(`pi ${flag} loads no built-in beyond Node's own and stdout's`, async () => {
      const { run, builtins } = await runPiRecordingBuiltins([flag], user.project, user.env);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toBe("");
      expect(publicNames(builtins).filter((name) => !VERSION_ALLOWED.includes(name))).toEqual([]);
      // The kernel and the plugins are not loaded either: nothing of theirs can have asked for a built-in.
      expect(builtins).not.toContain("fs/promises");
    });
  }

  it("a one-turn pi -p loads only the built-ins the turn needs", async () => {
    user.useMockServer(`${server.url}/v1`);
    server.enqueue({ sse: textStream });
    const { run, builtins } = await runPiRecordingBuiltins(
      ["-p", "--model", "mock/mock-1", "hello"],
      user.project,
      user.env,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello! How can I help you today?\n");
    expect(user.sessionFiles()).toHaveLength(1);
    expect(publicNames(builtins).filter((name) => !PRINT_ALLOWED.includes(name))).toEqual([]);
    expect(builtins).not.toContain("internal/deps/undici/undici");
    expect(builtins).not.toContain("internal/child_process");
  });
});
