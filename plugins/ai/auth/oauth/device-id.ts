/**
 * The installation's device id, which Sign in with ChatGPT sends as `ext_agent_host_id`. pi keeps it as
 * `deviceId` in the global settings.json and creates it on first use; reading and writing the same key
 * keeps one id for both tools. Every other setting is kept as written.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { withFileLock } from "pi-host";
import { writeAtomically } from "../auth-file.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `deviceId` of `<agentDir>/settings.json`, created (and saved) when the file has none. */
export async function installationDeviceId(agentDir: string): Promise<string> {
  const file = join(agentDir, "settings.json");
  return withFileLock(file, async () => {
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    let settings: Record<string, unknown> = {};
    if (text !== undefined && text.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${file} is not valid JSON; fix it so a device id can be kept there`);
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new Error(`${file} must hold a JSON object; fix it so a device id can be kept there`);
      }
      settings = parsed as Record<string, unknown>;
    }
    const existing = settings.deviceId;
    if (typeof existing === "string" && UUID.test(existing)) return existing;
    const created = randomUUID();
    await writeAtomically(file, `${JSON.stringify({ ...settings, deviceId: created }, null, 2)}\n`);
    return created;
  });
}
