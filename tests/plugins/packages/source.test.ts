/**
 * The pure rules of kit/packages/package-source.ts that the plugin and the host must agree on: how sources parse
 * (pi's forms), where packages live, which sources name the same package, and what a package.json's
 * `pi` key (or pi's convention folders) contributes.
 */
import { describe, expect, it } from "vitest";
import {
  packageContributions,
  packageIdentity,
  installedPackagePath,
  packageInstallPath,
  parsePackageSource,
  PackageSourceError,
  scopeBaseDir,
  settingEntrySource,
} from "../../../kit/packages/package-source.js";

describe("parsePackageSource", () => {
  it("npm: a name is unpinned; any version, range or tag pins it; scoped names keep their @", () => {
    expect(parsePackageSource("npm:pi-skills")).toEqual({
      kind: "npm",
      source: "npm:pi-skills",
      name: "pi-skills",
      version: undefined,
      pinned: false,
    });
    expect(parsePackageSource("npm:pi-skills@1.2.3")).toMatchObject({
      name: "pi-skills",
      version: "1.2.3",
      pinned: true,
    });
    expect(parsePackageSource("npm:@foo/bar")).toMatchObject({ name: "@foo/bar", version: undefined, pinned: false });
    expect(parsePackageSource("npm:@foo/bar@^2")).toMatchObject({ name: "@foo/bar", version: "^2", pinned: true });
    expect(parsePackageSource("npm:@foo/bar@next")).toMatchObject({ name: "@foo/bar", version: "next", pinned: true });
  });

  it("npm: names npm would refuse are one-line errors", () => {
    expect(() => parsePackageSource("npm:Bad Name")).toThrow(PackageSourceError);
    expect(() => parsePackageSource("npm:")).toThrow(`invalid package source "npm:": "" is not an npm package name`);
    expect(() => parsePackageSource("npm:foo@")).toThrow("nothing after @");
    expect(() => parsePackageSource("npm:../evil")).toThrow("is not an npm package name");
  });

  it("git: shorthand, scp-like, https, ssh and git:// URLs, each with an optional @ref that pins it", () => {
    expect(parsePackageSource("git:github.com/user/repo@v1")).toEqual({
      kind: "git",
      source: "git:github.com/user/repo@v1",
      repo: "https://github.com/user/repo",
      host: "github.com",
      path: "user/repo",
      ref: "v1",
      pinned: true,
    });
    expect(parsePackageSource("git:git@github.com:user/repo@v1.0.0")).toMatchObject({
      repo: "git@github.com:user/repo",
      host: "github.com",
      path: "user/repo",
      ref: "v1.0.0",
    });
    expect(parsePackageSource("https://github.com/user/repo")).toMatchObject({
      repo: "https://github.com/user/repo",
      path: "user/repo",
      ref: undefined,
      pinned: false,
    });
    expect(parsePackageSource("ssh://git@github.com/user/repo@main")).toMatchObject({
      repo: "ssh://git@github.com/user/repo",
      host: "github.com",
      ref: "main",
    });
    expect(parsePackageSource("git:git://127.0.0.1:9418/acme/greeter.git@v2")).toMatchObject({
      repo: "git://127.0.0.1:9418/acme/greeter.git",
      host: "127.0.0.1",
      path: "acme/greeter",
      ref: "v2",
    });
    expect(parsePackageSource("git://127.0.0.1:9418/acme/greeter.git")).toMatchObject({ kind: "git", ref: undefined });
  });

  it("git: a shorthand without a host name, or a path that climbs out, is refused", () => {
    expect(() => parsePackageSource("git:user/repo")).toThrow(`"user" is not a host name`);
    expect(() => parsePackageSource("git:repo")).toThrow("expected git:<host>/<path>");
    expect(() => parsePackageSource("https://example.com/a/../../etc")).not.toThrow(); // URL parsing already removed the ..
    expect(() => parsePackageSource("git:example.com/a/../b")).toThrow("may not contain empty, . or .. parts");
  });

  it("anything else is a local path, as in pi (bare words included)", () => {
    expect(parsePackageSource("./my-package")).toEqual({
      kind: "local",
      source: "./my-package",
      path: "./my-package",
      pinned: false,
    });
    expect(parsePackageSource("/abs/pkg")).toMatchObject({ kind: "local", path: "/abs/pkg" });
    expect(parsePackageSource("pi-skills")).toMatchObject({ kind: "local", path: "pi-skills" });
    expect(() => parsePackageSource("  ")).toThrow("it is empty");
  });
});

describe("install paths and identities", () => {
  it("npm in <base>/npm/node_modules/<name> (pi 1.6.0's layout), git in <base>/git/<host>/<path>, local where it is; base is the agent folder or <cwd>/.pi", () => {
    expect(scopeBaseDir("global", "/home/u/.pi/agent", "/work/p")).toBe("/home/u/.pi/agent");
    expect(scopeBaseDir("project", "/home/u/.pi/agent", "/work/p")).toBe("/work/p/.pi");
    expect(packageInstallPath(parsePackageSource("npm:@foo/bar@1.0.0"), "/a")).toBe("/a/npm/node_modules/@foo/bar");
    expect(packageInstallPath(parsePackageSource("git:github.com/user/repo@v1"), "/a")).toBe(
      "/a/git/github.com/user/repo",
    );
    expect(packageInstallPath(parsePackageSource("../pkg"), "/a/b")).toBe("/a/pkg");
  });

  it("one package whatever its version or ref: npm by name, git by repository, local by resolved path", () => {
    const id = (source: string, base = "/a"): string => packageIdentity(parsePackageSource(source), base);
    expect(id("npm:foo@1.0.0")).toBe(id("npm:foo"));
    expect(id("git:github.com/user/repo@v1")).toBe(id("https://github.com/user/repo"));
    expect(id("git:github.com/user/repo")).not.toBe(id("git:github.com/user/other"));
    expect(id("./pkg", "/a")).toBe(id("/a/pkg", "/elsewhere"));
  });

  it("setting entries are strings or pi's filter objects with a source", () => {
    expect(settingEntrySource("npm:foo")).toBe("npm:foo");
    expect(settingEntrySource({ source: "npm:foo", skills: [] })).toBe("npm:foo");
    expect(settingEntrySource({ skills: [] })).toBeUndefined();
    expect(settingEntrySource(3)).toBeUndefined();
  });
});

describe("packageContributions", () => {
  it("reads pi's keys and pi-host's plugins and distribution as absolute paths inside the package", () => {
    const manifest = {
      pi: {
        plugins: ["./plugins/a", "b.ts"],
        skills: ["skills"],
        prompts: ["./prompts"],
        extensions: ["ext"],
        themes: ["themes/x.json"],
        distribution: "./plugins.json",
      },
    };
    expect(packageContributions("/p", manifest, [])).toEqual({
      contributes: {
        plugins: ["/p/plugins/a", "/p/b.ts"],
        extensions: ["/p/ext"],
        skills: ["/p/skills"],
        prompts: ["/p/prompts"],
        themes: ["/p/themes/x.json"],
        distribution: "/p/plugins.json",
      },
      problems: [],
    });
  });

  it("without a pi key, pi's convention folders that exist are used", () => {
    const { contributes } = packageContributions("/p", { name: "x" }, ["skills", "prompts", "src"]);
    expect(contributes).toMatchObject({
      skills: ["/p/skills"],
      prompts: ["/p/prompts"],
      extensions: [],
      themes: [],
      plugins: [],
    });
  });

  it("a local source that is a file is one pi extension, as in pi", () => {
    expect(packageContributions("/p/ext.ts", undefined, [], true)).toEqual({
      contributes: {
        plugins: [],
        extensions: ["/p/ext.ts"],
        skills: [],
        prompts: [],
        themes: [],
        distribution: undefined,
      },
      problems: [],
    });
  });

  it("paths that leave the package, and values of the wrong type, are problems, one line each", () => {
    const { contributes, problems } = packageContributions(
      "/p",
      { pi: { plugins: ["../other"], skills: "skills", distribution: "/etc/plugins.json" } },
      [],
    );
    expect(contributes.plugins).toEqual([]);
    expect(problems).toEqual([
      `package.json: "pi.plugins" path "../other" leaves the package folder`,
      `package.json: "pi.skills" must be an array of paths relative to the package`,
      `package.json: "pi.distribution" must be the path of a plugins.json inside the package`,
    ]);
    expect(packageContributions("/p", { pi: [] }, []).problems).toEqual([
      `package.json: "pi" must be an object like {"plugins": ["./plugin"]}`,
    ]);
  });
});

describe("installedPackagePath", () => {
  it("an npm package only at <base>/npm/<name> (earlier pi-host installs) is found there; else pi's layout", () => {
    const source = parsePackageSource("npm:@foo/bar@1.0.0");
    const only = (present: string[]) => (path: string) => present.includes(path);
    expect(installedPackagePath(source, "/a", only(["/a/npm/@foo/bar/package.json"]))).toBe("/a/npm/@foo/bar");
    expect(
      installedPackagePath(source, "/a", only(["/a/npm/@foo/bar/package.json", "/a/npm/node_modules/@foo/bar"])),
    ).toBe("/a/npm/node_modules/@foo/bar");
    expect(installedPackagePath(source, "/a", only([]))).toBe("/a/npm/node_modules/@foo/bar");
  });
});
