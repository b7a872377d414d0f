/**
 * The MCP plugin over streamable HTTP, against a server built on the SDK's own server classes and
 * listening on 127.0.0.1 in this process (stateless: a fresh server per request, as the SDK documents).
 */
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { mcpEntry, notices } from "./mcp-harness.js";

/** A tiny remote MCP server: `shout` upper-cases, `fail` reports a tool error. Records request headers. */
function remoteServer(): {
  http: HttpServer;
  headers: IncomingHttpHeaders[];
  listen(port?: number): Promise<number>;
  close(): Promise<void>;
} {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    headers.push(req.headers);
    const server = new Server({ name: "remote-test", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: "shout",
          description: "Upper-cases text",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        },
        { name: "fail", description: "Always fails", inputSchema: { type: "object", properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === "shout")
        return { content: [{ type: "text", text: String(request.params.arguments?.text).toUpperCase() }] };
      return { content: [{ type: "text", text: "the remote tool broke" }], isError: true };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  return {
    http,
    headers,
    listen: (port = 0) =>
      new Promise((resolve) => http.listen(port, "127.0.0.1", () => resolve((http.address() as AddressInfo).port))),
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

let harness: SessionHarness | undefined;
let remote: ReturnType<typeof remoteServer> | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  await remote?.close();
  harness = undefined;
  remote = undefined;
});

function results(h: SessionHarness): ToolResultMessage[] {
  return h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
}

describe("MCP over streamable HTTP", () => {
  it("lists and calls a remote server's tools with the configured headers; its tool errors are tool errors", async () => {
    remote = remoteServer();
    const port = await remote.listen();
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__remote__shout", { text: "hello" }, "s"),
              fauxToolCall("mcp__remote__fail", {}, "f"),
            ],
          },
          { content: "done" },
        ],
      },
      entries: [
        mcpEntry({
          servers: { remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer test-token" } } },
        }),
      ],
    }));
    await h.session.call("prompt", "shout");
    expect(h.faux.requests[0]!.context.tools!.map((t) => t.name)).toEqual(["mcp__remote__shout", "mcp__remote__fail"]);
    const [shout, fail] = results(h);
    expect(shout).toMatchObject({ isError: false, content: [{ type: "text", text: "HELLO" }] });
    expect(fail).toMatchObject({ isError: true, content: [{ type: "text", text: "the remote tool broke" }] });
    expect(remote.headers.length).toBeGreaterThan(0);
    expect(remote.headers.every((h) => h.authorization === "Bearer test-token")).toBe(true);
  });

  it("a remote server that goes away gives an error result and is tried again on each use until it is back", async () => {
    remote = remoteServer();
    const port = await remote.listen();
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("mcp__remote__shout", { text: "one" }, "1")] },
          { content: "ok" },
          { content: [fauxToolCall("mcp__remote__shout", { text: "two" }, "2")] },
          { content: "ok" },
          { content: [fauxToolCall("mcp__remote__shout", { text: "three" }, "3")] },
          { content: "ok" },
        ],
      },
      entries: [mcpEntry({ servers: { remote: { type: "http", url: `http://127.0.0.1:${port}/mcp` } } })],
    }));
    await h.session.call("prompt", "one");
    await remote.close();
    await h.session.call("prompt", "two");
    await remote.listen(port);
    await h.session.call("prompt", "three");
    const [one, two, three] = results(h);
    expect(one).toMatchObject({ isError: false, content: [{ type: "text", text: "ONE" }] });
    expect(two!.isError).toBe(true);
    expect((two!.content[0] as { text: string }).text).toMatch(/^MCP server "remote": /);
    expect(three).toMatchObject({ isError: false, content: [{ type: "text", text: "THREE" }] });
    // The listing after the failed call could not reconnect: reported once.
    const reported = notices(h.events);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.message).toMatch(/^MCP server "remote" failed to start: /);
  });

  it("an unreachable remote server is reported once and offers no tools", async () => {
    remote = remoteServer();
    const port = await remote.listen();
    await remote.close();
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "no tools" }, { content: "still none" }] },
      entries: [mcpEntry({ servers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } })],
    }));
    await h.session.call("prompt", "one");
    await h.session.call("prompt", "two");
    expect(h.faux.requests[0]!.context.tools ?? []).toEqual([]);
    const reported = notices(h.events);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.message).toMatch(/^MCP server "remote" failed to start: /);
  });
});
