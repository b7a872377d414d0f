/**
 * The MCP SDK, imported on first use only. A run with no MCP server configured never loads it (≈ 120 ms
 * of imports), and the built plugin's index.js keeps it out of a cold start.
 */
export type McpSdk = Awaited<ReturnType<typeof importSdk>>;

let loading: Promise<McpSdk> | undefined;

/** The SDK modules this plugin uses, imported once per process. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk().catch((error: unknown) => {
    loading = undefined;
    throw new Error(`the MCP SDK (@modelcontextprotocol/sdk) could not be loaded: ${(error as Error).message}`);
  });
  return loading;
}

async function importSdk() {
  const [client, stdioFraming, stdioClient, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    ReadBuffer: stdioFraming.ReadBuffer,
    serializeMessage: stdioFraming.serializeMessage,
    getDefaultEnvironment: stdioClient.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
  };
}
