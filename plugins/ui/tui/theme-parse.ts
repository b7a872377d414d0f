/**
 * pi's theme file format, read as strictly as pi 1.6.0 reads it: the top-level fields `$schema`, `name`,
 * `appearance`, `vars`, `colors` and `export` only; every required colour token and no unknown one; each
 * value a hex colour (`#0af`, `#00aaff`), `oklch(...)`, `okhsl(...)`, a 256-colour index, the name of a var
 * (vars may name vars) or "" (the terminal's default). The first problem is one line that names the file
 * and the field, so a broken theme is easy to fix.
 */
import { converter, modeLrgb, modeOkhsl, modeOklab, modeOklch, modeRgb, toGamut, useMode } from "culori/fn";
import { THEME_TOKENS, TOKEN_NAMES, tokenFallback, type ThemeToken } from "./theme-tokens.js";

/** A theme file's JSON. */
export interface ThemeJson {
  $schema?: string;
  name: string;
  appearance?: "dark" | "light";
  vars?: Record<string, string | number>;
  colors: Record<string, string | number>;
  export?: Record<string, string | number>;
}

/** A colour ready for SGR: the terminal's default, a palette index, or 24-bit RGB. */
export type TermColor =
  | { kind: "default" }
  | { kind: "index"; index: number }
  | { kind: "rgb"; r: number; g: number; b: number };

/** A checked theme: its name, the appearance it declares, and a colour for every token. */
export interface ParsedTheme {
  name: string;
  appearance: "dark" | "light" | undefined;
  colors: Record<ThemeToken, TermColor>;
}

/** A theme file that cannot be used; the message is one line naming the file and the field. */
export class ThemeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ThemeError";
  }
}

const TOP_LEVEL = new Set(["$schema", "name", "appearance", "vars", "colors", "export"]);
const EXPORT_KEYS = new Set(["pageBg", "cardBg", "infoBg"]);

/** The name pi reserves for the theme made from the terminal's colours. */
export const SYSTEM_THEME = "system";

/** Checks `json` (read from `label`, a file path or a built-in's name) and resolves every colour. */
export function parseTheme(label: string, json: unknown): ParsedTheme {
  const fail = (field: string, problem: string): never => {
    throw new ThemeError(`theme ${label}: ${field}${field === "" ? "" : ": "}${problem}`);
  };
  if (json === null || typeof json !== "object" || Array.isArray(json))
    fail("", 'not a theme: expected an object with "name" and "colors"');
  const theme = json as Record<string, unknown>;
  for (const key of Object.keys(theme))
    if (!TOP_LEVEL.has(key)) fail(key, `unknown field (a theme has ${[...TOP_LEVEL].join(", ")})`);
  const name = theme.name;
  if (typeof name !== "string" || name.trim() === "") fail("name", "must be a non-empty string");
  if ((name as string).includes("/"))
    fail("name", `"${name}" contains "/", which is reserved for light/dark pairs in the theme setting`);
  const appearance = theme.appearance;
  if (appearance !== undefined && appearance !== "dark" && appearance !== "light")
    fail("appearance", `must be "dark" or "light", not ${JSON.stringify(appearance)}`);
  const vars = objectField(theme, "vars", fail);
  const colors = objectField(theme, "colors", fail) ?? fail("colors", "missing (an object of colour tokens)");
  const exported = objectField(theme, "export", fail);
  for (const [key, value] of Object.entries(vars ?? {})) checkValue(`vars.${key}`, value, fail);
  for (const key of Object.keys(colors))
    if (!(key in THEME_TOKENS)) fail(`colors.${key}`, "unknown colour token (put your own colours under vars)");
  const missing = TOKEN_NAMES.filter((t) => !(t in colors) && tokenFallback(t) === undefined);
  if (missing.length > 0)
    fail(
      `colors.${missing[0]}`,
      `missing${missing.length > 1 ? ` (and ${missing.length - 1} more: ${missing.slice(1).join(", ")})` : ""}; see the built-in dark theme`,
    );
  for (const key of Object.keys(exported ?? {}))
    if (!EXPORT_KEYS.has(key)) fail(`export.${key}`, `unknown field (export has ${[...EXPORT_KEYS].join(", ")})`);
  const resolved = {} as Record<ThemeToken, TermColor>;
  for (const token of TOKEN_NAMES) {
    if (!(token in colors)) continue;
    const value = colors[token];
    checkValue(`colors.${token}`, value, fail);
    resolved[token] = resolveColor(`colors.${token}`, value as string | number, vars ?? {}, fail);
  }
  for (const token of TOKEN_NAMES) {
    let fallback = tokenFallback(token);
    while (resolved[token] === undefined && fallback !== undefined) {
      if (resolved[fallback] !== undefined) resolved[token] = resolved[fallback];
      fallback = tokenFallback(fallback);
    }
  }
  return { name: name as string, appearance: appearance as ParsedTheme["appearance"], colors: resolved };
}

function objectField(
  theme: Record<string, unknown>,
  key: string,
  fail: (field: string, problem: string) => never,
): Record<string, unknown> | undefined {
  const value = theme[key];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(key, "must be an object");
  return value as Record<string, unknown>;
}

function checkValue(field: string, value: unknown, fail: (field: string, problem: string) => never): void {
  if (typeof value === "string") return;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255) return;
  fail(field, `${JSON.stringify(value)} is not a colour (a "#rrggbb", oklch(...), okhsl(...), 0-255, a var or "")`);
}

/** A colour value, following var references (a missing or circular one is an error). */
function resolveColor(
  field: string,
  value: string | number,
  vars: Record<string, unknown>,
  fail: (field: string, problem: string) => never,
): TermColor {
  const seen: string[] = [];
  let current: unknown = value;
  while (typeof current === "string" && current !== "" && !/^#|^ok(lch|hsl)\(/i.test(current)) {
    if (seen.includes(current)) fail(field, `circular var reference ${[...seen, current].join(" -> ")}`);
    if (!(current in vars)) fail(field, `"${current}" is not a colour and no var of that name is defined`);
    seen.push(current);
    current = vars[current];
  }
  if (typeof current === "number") {
    if (!Number.isInteger(current) || current < 0 || current > 255) fail(field, `${current} is not a 0-255 index`);
    return { kind: "index", index: current };
  }
  if (typeof current !== "string") return fail(field, `${JSON.stringify(current)} is not a colour`);
  if (current === "") return { kind: "default" };
  const color = parseColorText(current);
  if (color === undefined) fail(field, `"${current}" is not a valid colour`);
  return color as TermColor;
}

let culoriReady = false;
function culori(): { rgb: (color: object) => unknown; gamut: (color: object) => unknown } {
  if (!culoriReady) {
    for (const mode of [modeRgb, modeLrgb, modeOklab, modeOklch, modeOkhsl]) useMode(mode);
    culoriReady = true;
  }
  const rgb = converter("rgb");
  const gamut = toGamut("rgb", "oklch");
  return { rgb: (color) => rgb(color as never), gamut: (color) => gamut(color as never) };
}

/** `#rgb`, `#rrggbb`, `oklch(L C H)` (L as 0-1 or %) or `okhsl(H S% L%)` as RGB; undefined otherwise. */
export function parseColorText(text: string): TermColor | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (hex !== null) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join("") : hex[1]!;
    return {
      kind: "rgb",
      r: Number.parseInt(digits.slice(0, 2), 16),
      g: Number.parseInt(digits.slice(2, 4), 16),
      b: Number.parseInt(digits.slice(4, 6), 16),
    };
  }
  const fn = /^(oklch|okhsl)\(\s*([^)]*)\)$/i.exec(text.trim());
  if (fn === null) return undefined;
  const parts = fn[2]!.split(/[\s,/]+/).filter((p) => p !== "");
  if (parts.length !== 3) return undefined;
  const numbers = parts.map((p) => ({ value: Number.parseFloat(p), percent: p.endsWith("%") }));
  if (numbers.some((n) => !Number.isFinite(n.value) || !/^-?[\d.]+(%|deg)?$/.test(parts[numbers.indexOf(n)]!)))
    return undefined;
  const { rgb, gamut } = culori();
  const unit = (n: { value: number; percent: boolean }): number => (n.percent ? n.value / 100 : n.value);
  const color =
    fn[1]!.toLowerCase() === "oklch"
      ? gamut({
          mode: "oklch",
          l: unit(numbers[0]!),
          c: numbers[1]!.percent ? (numbers[1]!.value / 100) * 0.4 : numbers[1]!.value,
          h: numbers[2]!.value,
        })
      : rgb({ mode: "okhsl", h: numbers[0]!.value, s: unit(numbers[1]!), l: unit(numbers[2]!) });
  const channel = (v: number | undefined): number => Math.round(Math.min(1, Math.max(0, v ?? 0)) * 255);
  const out = color as { r?: number; g?: number; b?: number };
  return { kind: "rgb", r: channel(out.r), g: channel(out.g), b: channel(out.b) };
}
