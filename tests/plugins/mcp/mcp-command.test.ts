/** `/mcp` through the beforePrompt hook: list, disable, enable, restart — never sent to the model. */
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { alive, everythingServer, exited, mcpEntry, notices, serverPid, silentServer } from "./mcp-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("/mcp", () => {
  it("lists servers, disables one (its process ends, its tools go), enables it again; none of it reaches the model", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "first" }, { content: "second" }] },
      entries: [
        mcpEntry({ servers: { everything: everythingServer(), spare: everythingServer() }, disabled: ["spare"] }),
      ],
    }));
    await h.session.call("prompt", "/mcp");
    expect(notices(h.events).at(-1)!.message.split("\n")).toEqual([
      expect.stringMatching(
        /^everything \[stdio\] .*server-everything.* stdio: not running \(starts when tools are next listed\)$/,
      ),
      expect.stringMatching(/^spare \[stdio\] .*: disabled$/),
    ]);

    await h.session.call("prompt", "hello");
    const tools = () => h.faux.requests.at(-1)!.context.tools?.map((t) => t.name) ?? [];
    expect(tools()).toContain("mcp__everything__echo");
    expect(tools().some((n) => n.startsWith("mcp__spare__"))).toBe(false);
    const pid = (await serverPid(h.kernel, "everything"))!;
    await h.session.call("prompt", "/mcp list");
    expect(notices(h.events).at(-1)!.message).toContain(`everything [stdio]`);
    expect(notices(h.events).at(-1)!.message).toContain(`: running (pid ${pid})`);

    await h.session.call("prompt", "/mcp disable everything");
    expect(notices(h.events).at(-1)).toEqual({ level: "info", message: 'MCP server "everything" disabled' });
    await exited(pid);
    await h.session.call("prompt", "/mcp enable spare");
    expect(notices(h.events).at(-1)).toEqual({
      level: "info",
      message: 'MCP server "spare" enabled; it starts on the next turn',
    });
    await h.session.call("prompt", "again");
    expect(tools()).toContain("mcp__spare__echo");
    expect(tools().some((n) => n.startsWith("mcp__everything__"))).toBe(false);

    await h.session.call("prompt", "/mcp enable everything");
    await h.session.call("prompt", "/mcp frobnicate");
    expect(notices(h.events).at(-1)).toEqual({
      level: "warning",
      message: "usage: /mcp [list | enable <server> | disable <server> | restart <server>]",
    });
    await h.session.call("prompt", "/mcp disable nobody");
    expect(notices(h.events).at(-1)).toEqual({
      level: "warning",
      message: '/mcp disable: no MCP server is named "nobody" (configured: everything, spare)',
    });
    // Two prompts reached the model; the seven /mcp commands did not.
    expect(h.faux.requests).toHaveLength(2);
    expect(h.session.call("messages").filter((m) => m.role === "user")).toHaveLength(2);
  });

  it("toggles survive a reload of the plugin", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "ok" }] },
      entries: [mcpEntry({ servers: { everything: everythingServer() } })],
    }));
    await h.session.call("prompt", "/mcp disable everything");
    expect((await h.kernel.reload("mcp")).status).toBe("committed");
    await h.session.call("prompt", "hello");
    expect(h.faux.requests[0]!.context.tools ?? []).toEqual([]);
  });

  it("/mcp restart starts a server that failed, and says how it went", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: "ok" },
          { content: [fauxToolCall("mcp__everything__echo", { message: "back" }, "e")] },
          { content: "done" },
        ],
      },
      entries: [
        mcpEntry({ servers: { everything: everythingServer(), silent: { ...silentServer(), startTimeoutMs: 200 } } }),
      ],
    }));
    await h.session.call("prompt", "hello");
    expect(notices(h.events)).toEqual([
      { level: "warning", message: 'MCP server "silent" failed to start: did not answer within 200 ms' },
    ]);
    await h.session.call("prompt", "/mcp restart silent");
    expect(notices(h.events).at(-1)).toEqual({
      level: "warning",
      message: '/mcp restart: MCP server "silent" failed to start: did not answer within 200 ms',
    });
    const before = (await serverPid(h.kernel, "everything"))!;
    await h.session.call("prompt", "/mcp restart everything");
    expect(notices(h.events).at(-1)!.message).toMatch(/^MCP server "everything" restarted: \d+ tool\(s\)$/);
    await exited(before);
    const after = (await serverPid(h.kernel, "everything"))!;
    expect(alive(after)).toBe(true);
    await h.session.call("prompt", "echo");
    expect(h.session.call("messages").find((m) => m.role === "toolResult")).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "Echo: back" }],
    });
  });
});
