import { describe, expect, it } from "vitest";
import { resourceSourceInfo } from "../../kit/text/source-info.js";

describe("resourceSourceInfo", () => {
  it("a template or skill found in the agent or project folder is pi's auto, with that folder as baseDir", () => {
    expect(resourceSourceInfo("/home/u/.pi/agent/prompts/fix.md", "user")).toEqual({
      path: "/home/u/.pi/agent/prompts/fix.md",
      source: "auto",
      scope: "user",
      origin: "top-level",
      baseDir: "/home/u/.pi/agent",
    });
    expect(resourceSourceInfo("/p/.pi/skills/web/SKILL.md", "project")).toMatchObject({
      scope: "project",
      baseDir: "/p/.pi",
    });
  });

  it("one given on the command line is cli and temporary; one from a package has origin package", () => {
    expect(resourceSourceInfo("/x/explain.md", "flag")).toEqual({
      path: "/x/explain.md",
      source: "cli",
      scope: "temporary",
      origin: "top-level",
    });
    expect(resourceSourceInfo("/n/pkg/prompts/a.md", "package:npm:pkg").origin).toBe("package");
  });
});
