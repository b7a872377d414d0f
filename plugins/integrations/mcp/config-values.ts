/**
 * `env` and `headers` values of mcp.json servers, resolved the way pi 1.6 resolves them when a server
 * starts: `$NAME` / `${NAME}` insert an environment variable (kit's interpolateValue, the rule models.json
 * uses too: `$$` and `$!` are a literal `$` and `!`), and a value that starts with `!` runs the rest as a
 * shell command and uses its trimmed output. Resolving at start, not when listing, keeps a `!command`
 * from running every turn and lets a changed variable reach the next start.
 */
import { resolveConfigSpec, type ConfigSpawner } from "pi-host";

/**
 * Every value of `values` resolved; throws one line naming the field (`what`, e.g. `env "TOKEN"`) and
 * why: an unset variable, or a command that failed, timed out or printed nothing.
 */
export async function resolveValues(
  values: Record<string, string>,
  field: string,
  env: NodeJS.ProcessEnv,
  spawn: ConfigSpawner,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(values))
    out[key] = await resolveConfigSpec(spec, `${field} "${key}"`, env, spawn);
  return out;
}
