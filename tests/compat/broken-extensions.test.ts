/**
 * Bad extensions on the built CLI: each broken one is exactly one stderr line naming its file and the
 * cause, and the good extension beside them still loads and works (its command answers). Covers a
 * syntax error, a throw at import, a missing module, a default export that is not a function, and a
 * factory that throws.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome, completionsText } from "../e2e/agent-home.js";
import { MockLlmServer } from "../support/mock-llm-server.js";

let llm: MockLlmServer;
beforeAll(async () => {
  llm = await new MockLlmServer().start();
});
afterAll(async () => {
  await llm?.close();
});

const BROKEN: Record<string, { source: string; cause: RegExp }> = {
  "syntax.ts": {
    source: "export default function (pi) {\n  pi.registerCommand(\n",
    cause: /Unexpected token .*syntax\.ts:3/,
  },
  "throws.ts": {
    source: 'throw new Error("cannot start here");\nexport default function () {}\n',
    cause: /cannot start here/,
  },
  "missing.ts": {
    source: 'import { nothing } from "no-such-module-here";\nexport default function () { nothing(); }\n',
    cause: /no-such-module-here/,
  },
  "not-a-function.ts": { source: "export default 42;\n", cause: /function/i },
  "factory-throws.ts": {
    source: 'export default function () { throw new Error("factory gave up"); }\n',
    cause: /factory gave up/,
  },
};

describe("broken extensions (built CLI)", () => {
  it("each is one line naming the file and the cause; the good one still loads and its command runs", async () => {
    const user = agentHome();
    user.useMockServer(`${llm.url}/v1`);
    const dir = join(user.home, "exts");
    mkdirSync(dir);
    const args: string[] = [];
    for (const [name, { source }] of Object.entries(BROKEN)) {
      writeFileSync(join(dir, name), source);
      args.push("-e", join(dir, name));
    }
    writeFileSync(
      join(dir, "good.ts"),
      'export default function (pi) { pi.registerCommand("good", { handler: async (args) => { pi.sendUserMessage("good says " + args); } }); }\n',
    );
    args.push("-e", join(dir, "good.ts"));
    llm.enqueue({ sse: completionsText("fine") });
    const run = await user.pi([...args, "-p", "--model", "mock/mock-1", "/good hello"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("fine\n");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain("good says hello");
    const lines = run.stderr.split("\n").filter((line) => line !== "");
    for (const [name, { cause }] of Object.entries(BROKEN)) {
      const mine = lines.filter((line) => line.includes(join(dir, name)));
      expect(mine, `${name}: ${run.stderr}`).toHaveLength(1);
      expect(mine[0]).toMatch(/^pi-extensions: failed to load extension /);
      expect(mine[0]!.slice(mine[0]!.indexOf(join(dir, name)) + join(dir, name).length)).toMatch(cause);
    }
    expect(lines).toHaveLength(Object.keys(BROKEN).length);
  }, 120_000);
});
