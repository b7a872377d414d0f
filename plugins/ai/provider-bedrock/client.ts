/**
 * The one file that loads the AWS SDK, on the first request: it costs over half a second to import, so
 * a run that never talks to Bedrock never pays for it. Builds a client for one request and sends one
 * ConverseStream command. The SDK never retries on its own (`maxAttempts: 1`): the provider's retry loop
 * does, because only it knows whether content already reached the consumer.
 */
import type { ConverseStreamCommandInput, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import type { BedrockClientSettings } from "./client-config.js";

/** Headers the SigV4 signature or the bearer scheme owns; a caller's header never replaces them. */
function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "authorization" || lower === "host" || lower.startsWith("x-amz-");
}

/** An open answer: the SDK's decoded event stream and the request id AWS gave it. */
export interface BedrockResponse {
  events: AsyncIterable<ConverseStreamOutput>;
  requestId: string | undefined;
  /** Closes the client's connection; call once the stream is read or abandoned. */
  close(): void;
}

/** Sends `input` with `settings`; resolves once the response headers arrived. */
export async function sendConverseStream(
  settings: BedrockClientSettings,
  input: ConverseStreamCommandInput,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<BedrockResponse> {
  // The pinned SDK warns on Node 20 about SDK versions yet to come; that is not the user's concern and
  // would land in the middle of `pi -p` output. Set the SDK's own switch unless the user chose.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { BedrockRuntimeClient, ConverseStreamCommand } = await import("@aws-sdk/client-bedrock-runtime");
  const client = new BedrockRuntimeClient({
    maxAttempts: 1,
    ...(settings.region !== undefined && { region: settings.region }),
    ...(settings.endpoint !== undefined && { endpoint: settings.endpoint }),
    ...(settings.profile !== undefined && { profile: settings.profile }),
    ...(settings.credentials !== undefined && { credentials: settings.credentials }),
    ...(settings.bearerToken !== undefined && {
      token: { token: settings.bearerToken },
      authSchemePreference: ["httpBearerAuth"],
    }),
  });
  const extra = Object.entries(headers).filter(([name]) => !isReservedHeader(name));
  if (extra.length > 0) {
    // The build step runs before signing, so the signature covers these headers.
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers !== undefined) for (const [name, value] of extra) request.headers[name] = value;
        return next(args);
      },
      { step: "build", name: "piHostHeaders", priority: "low" },
    );
  }
  // The client holds an HTTP/2 session; one client per request, so the session goes with the request.
  const close = (): void => client.destroy();
  try {
    const response = await client.send(new ConverseStreamCommand(input), { abortSignal: signal });
    if (response.stream === undefined) throw new Error("Bedrock answered without an event stream");
    return { events: response.stream, requestId: response.$metadata.requestId, close };
  } catch (error) {
    close();
    throw error;
  }
}
