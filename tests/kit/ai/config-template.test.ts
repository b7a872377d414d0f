import { describe, expect, it } from "vitest";
import { interpolateValue, isCommandValue } from "../../../kit/ai/config-template.js";

describe("interpolateValue (models.json apiKey and header values)", () => {
  const env = { KEY: "k1", OTHER: "o2", EMPTY: "" };

  it("fills $NAME and ${NAME} anywhere in the text", () => {
    expect(interpolateValue("$KEY", env)).toEqual({ value: "k1", variables: ["KEY"], missing: [] });
    expect(interpolateValue("Bearer ${KEY}/$OTHER!", env).value).toBe("Bearer k1/o2!");
    expect(interpolateValue("${KEY}${KEY}", env)).toEqual({ value: "k1k1", variables: ["KEY"], missing: [] });
  });

  it("reads $$ and $! as a literal $ and !, and keeps a $ that starts no name", () => {
    expect(interpolateValue("$$KEY", env).value).toBe("$KEY");
    expect(interpolateValue("a$!b", env).value).toBe("a!b");
    expect(interpolateValue("cost $5 ${not a name} ${open", env).value).toBe("cost $5 ${not a name} ${open");
  });

  it("gives no value, and names the variables, when one is unset or empty", () => {
    expect(interpolateValue("x-$MISSING-${EMPTY}", env)).toEqual({
      value: undefined,
      variables: ["MISSING", "EMPTY"],
      missing: ["MISSING", "EMPTY"],
    });
  });

  it("keeps pi 0.73's bare variable names working when the variable is set; otherwise a name is literal", () => {
    expect(interpolateValue("KEY", env).value).toBe("k1");
    expect(interpolateValue("sk-plain", env).value).toBe("sk-plain");
    expect(interpolateValue("UNSET_NAME", env).value).toBe("UNSET_NAME");
  });

  it("tells a !command from a template", () => {
    expect(isCommandValue("!op read x")).toBe(true);
    expect(isCommandValue("$!x")).toBe(false);
  });
});
