/**
 * provider-bedrock: Amazon Bedrock's Converse API (ConverseStream) on the official AWS SDK, which is
 * loaded only when a request is made. Text, reasoning with signatures, tool calls, usage and abort;
 * credentials as the AWS SDK finds them (profiles, keys, container and web-identity roles) or a Bedrock
 * bearer token (`AWS_BEARER_TOKEN_BEDROCK`).
 */
import { AiProviderContract, definePlugin } from "pi-host";
import { BEDROCK_API, streamBedrock } from "./bedrock-stream.js";

export default definePlugin({
  id: "provider-bedrock",
  version: "0.1.0",
  description: "Amazon Bedrock models through the Converse streaming API",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, { api: BEDROCK_API, stream: streamBedrock }, { key: BEDROCK_API });
  },
});
