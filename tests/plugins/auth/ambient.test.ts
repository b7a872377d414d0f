/**
 * Platform credentials count as configured for Bedrock and Vertex, as pi 1.6 detects them, so the
 * router lets those providers run without a key of their own; everything else still needs a key.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ambientSource } from "../../../plugins/ai/auth/ambient.js";
import { ApiKeyStore } from "../../../plugins/ai/auth/auth-store.js";
import { AMBIENT_CREDENTIALS } from "../../../kit/index.js";

describe("ambient credentials", () => {
  it("finds AWS profiles, keys, container and web-identity roles for amazon-bedrock only", () => {
    expect(ambientSource("amazon-bedrock", { AWS_PROFILE: "dev" })).toBe("AWS_PROFILE");
    expect(ambientSource("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" })).toBe(
      "AWS access keys",
    );
    expect(ambientSource("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a" })).toBeUndefined();
    expect(ambientSource("amazon-bedrock", { AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/v2/x" })).toBe("ECS task role");
    expect(ambientSource("amazon-bedrock", { AWS_WEB_IDENTITY_TOKEN_FILE: "/t" })).toBe("web identity token");
    expect(ambientSource("anthropic", { AWS_PROFILE: "dev" })).toBeUndefined();
  });

  it("needs an ADC file, a project and a location for google-vertex", () => {
    const home = mkdtempSync(join(tmpdir(), "pi-adc-"));
    const file = join(home, "adc.json");
    const env = { HOME: home, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "us-central1" };
    expect(ambientSource("google-vertex", { ...env, GOOGLE_APPLICATION_CREDENTIALS: file })).toBeUndefined();
    writeFileSync(file, "{}");
    expect(ambientSource("google-vertex", { ...env, GOOGLE_APPLICATION_CREDENTIALS: file })).toBe(
      "gcloud application default credentials",
    );
    expect(ambientSource("google-vertex", { HOME: home, GOOGLE_APPLICATION_CREDENTIALS: file })).toBeUndefined();
  });

  it("the store hands out the placeholder after every real key source", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-auth-"));
    const store = (env: NodeJS.ProcessEnv) => new ApiKeyStore({ agentDir, env, spawn: undefined as never });
    expect(await store({ AWS_PROFILE: "dev" }).apiKey("amazon-bedrock")).toBe(AMBIENT_CREDENTIALS);
    expect((await store({ AWS_PROFILE: "dev" }).keySource("amazon-bedrock")).label).toBe("AWS_PROFILE");
    expect(await store({ AWS_PROFILE: "dev", AWS_BEARER_TOKEN_BEDROCK: "tok" }).apiKey("amazon-bedrock")).toBe("tok");
    expect(await store({}).apiKey("amazon-bedrock")).toBeUndefined();
  });
});
