/**
 * pi extensions that installed packages bring load at start-up (pi's docs/packages.md: package.json
 * `pi.extensions`, else the `extensions/` folder), through the pi-extensions plugin, on the built CLI
 * against MockLlmServer: the model is offered the extension's tool and gets its result; an extension
 * that fails to load is one notice line naming it, and the package's other extensions still load.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, type AgentHome } from "./agent-home.js";
import type { PiRun } from "./run-pi.js";

const GREET = fileURLToPath(new URL("../fixtures/pi-extensions/greet-tool.ts", import.meta.url));
const HELLO = fileURLToPath(new URL("../fixtures/pi-extensions/hello-command.ts", import.meta.url));
const SLOW = 120_000;

let llm: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  llm = await new MockLlmServer().start();
});
afterAll(async () => {
  await llm?.close();
});
beforeEach(() => {
  user = agentHome();
  llm.requests.length = 0;
  user.useMockServer(`${llm.url}/v1`);
});

async function piOk(args: string[]): Promise<PiRun> {
  const run = await user.pi(args);
  if (run.code !== 0) throw new Error(`pi ${args.join(" ")} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

describe("extensions of installed packages (built CLI, MockLlmServer)", () => {
  it(
    "a package's extensions/ folder loads at start-up: its tool works in pi -p; a broken one is one notice line and the rest load",
    async () => {
      const pkg = join(user.home, "greet-package");
      mkdirSync(join(pkg, "extensions"), { recursive: true });
      writeFileSync(
        join(pkg, "package.json"),
        JSON.stringify({ name: "greet-package", version: "1.0.0", keywords: ["pi-package"] }),
      );
      copyFileSync(GREET, join(pkg, "extensions", "greet.ts"));
      writeFileSync(
        join(pkg, "extensions", "broken.ts"),
        'throw new Error("broken on purpose");\nexport default function () {}\n',
      );
      const install = await piOk(["install", pkg]);
      expect(install.stdout).toContain("extensions: extensions");

      llm.enqueue(
        { sse: completionsToolCall("call_greet", "greet", { name: "bo" }) },
        { sse: completionsText("done") },
      );
      const run = await piOk(["-p", "--model", "mock/mock-1", "greet bo"]);
      expect(run.stdout).toBe("done\n");
      const failures = run.stderr.split("\n").filter((line) => line.includes("failed to load extension"));
      expect(failures).toEqual([
        `pi-extensions: failed to load extension ${join(pkg, "extensions", "broken.ts")}: broken on purpose`,
      ]);
      expect(llm.requests[0]!.body.tools.map((t: any) => t.function.name)).toContain("greet");
      expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain("Hello, bo!");

      // --no-extensions turns package extensions off with the rest.
      llm.enqueue({ sse: completionsText("plain") });
      const off = await piOk(["-p", "--model", "mock/mock-1", "--no-extensions", "hi"]);
      expect(off.stderr).not.toContain("failed to load extension");
      expect((llm.requests[2]!.body.tools ?? []).map((t: any) => t.function.name)).not.toContain("greet");
    },
    SLOW,
  );

  it(
    "package.json pi.extensions names the entry files: its command runs in pi -p",
    async () => {
      const pkg = join(user.home, "hello-package");
      mkdirSync(join(pkg, "src"), { recursive: true });
      writeFileSync(
        join(pkg, "package.json"),
        JSON.stringify({ name: "hello-package", version: "1.0.0", pi: { extensions: ["./src/hello.ts"] } }),
      );
      copyFileSync(HELLO, join(pkg, "src", "hello.ts"));
      await piOk(["install", pkg]);

      llm.enqueue({ sse: completionsText("answered") });
      const run = await piOk(["-p", "--model", "mock/mock-1", "/ask what is up"]);
      expect(run.stdout).toBe("answered\n");
      // The command handed "what is up" to the agent; without it the model would get "/ask what is up".
      const sent = JSON.stringify(llm.requests[0]!.body.messages);
      expect(sent).toContain("what is up");
      expect(sent).not.toContain("/ask");
    },
    SLOW,
  );
});
