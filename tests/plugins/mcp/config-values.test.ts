/** `env` / `headers` values of mcp.json servers: variables and `!command`s, resolved as a server starts. */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { resolveValues } from "../../../plugins/integrations/mcp/config-values.js";

const env = { ...process.env, TOKEN: "t0k", EMPTY: "" };

describe("resolveValues", () => {
  it("inserts $NAME and ${NAME}, keeps $$ and $! as literal $ and !, and leaves other text alone", async () => {
    expect(
      await resolveValues(
        { A: "${TOKEN}", B: "Bearer $TOKEN", C: "cost $$5 wow$!", D: "plain", E: "x${not a name}" },
        "env",
        env,
        spawn,
      ),
    ).toEqual({ A: "t0k", B: "Bearer t0k", C: "cost $5 wow!", D: "plain", E: "x${not a name}" });
  });

  it("runs a value that starts with ! as a shell command and uses its trimmed output", async () => {
    expect(await resolveValues({ Authorization: "!echo Bearer $(printf %s $TOKEN)" }, "headers", env, spawn)).toEqual({
      Authorization: "Bearer t0k",
    });
  });

  it("an unset or empty variable is one line naming the field and the variables", async () => {
    await expect(resolveValues({ KEY: "${NOPE_UNSET_VAR}-$EMPTY" }, "env", env, spawn)).rejects.toThrow(
      'env "KEY" uses $NOPE_UNSET_VAR, $EMPTY, which are not set in the environment',
    );
  });

  it("a failing command, or one that prints nothing, names the field and the command", async () => {
    await expect(resolveValues({ X: "!echo oops >&2; exit 3" }, "headers", env, spawn)).rejects.toThrow(
      'the command for headers "X" failed (exit code 3: oops): !echo oops >&2; exit 3',
    );
    await expect(resolveValues({ Y: "!true" }, "env", env, spawn)).rejects.toThrow(
      'the command for env "Y" failed (it printed nothing): !true',
    );
  });
});
