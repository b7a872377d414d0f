/**
 * Whether the terminal shows 24-bit colour, decided as pi 1.6.0 decides: the `terminal.trueColor` setting
 * when it is true or false, else `PI_TRUE_COLOR=1|0`, else what the environment says (`COLORTERM`
 * truecolor/24bit or a `-direct` TERM; terminals known to have it, outside tmux and screen). Without it,
 * theme colours are drawn as their nearest xterm 256-colour index.
 */
import type { TuiRgb } from "pi-host";

/** The terminals pi knows draw 24-bit colour (by TERM_PROGRAM, or a variable they set). */
function knownTrueColorTerminal(env: NodeJS.ProcessEnv): boolean {
  const program = env.TERM_PROGRAM?.toLowerCase() ?? "";
  const term = env.TERM?.toLowerCase() ?? "";
  if (
    ["rex", "orca", "kitty", "ghostty", "wezterm", "warpterminal", "iterm.app", "alacritty", "vscode", "zed"].includes(
      program,
    )
  )
    return true;
  if (term.includes("ghostty") || term.startsWith("alacritty")) return true;
  const markers = [
    "KITTY_WINDOW_ID",
    "GHOSTTY_RESOURCES_DIR",
    "WEZTERM_PANE",
    "WARP_SESSION_ID",
    "WARP_TERMINAL_SESSION_UUID",
    "ITERM_SESSION_ID",
    "WT_SESSION",
    "ALACRITTY_WINDOW_ID",
  ];
  return (
    markers.some((name) => env[name] !== undefined && env[name] !== "") ||
    env.TERMINAL_EMULATOR?.toLowerCase() === "jetbrains-jediterm" ||
    process.platform === "win32"
  );
}

/** Whether to draw 24-bit colour, from the `terminal.trueColor` setting and the environment. */
export function trueColorOf(setting: unknown, env: NodeJS.ProcessEnv = process.env): boolean {
  if (typeof setting === "boolean") return setting;
  if (env.PI_TRUE_COLOR === "1") return true;
  if (env.PI_TRUE_COLOR === "0") return false;
  const term = env.TERM?.toLowerCase() ?? "";
  const colorTerm = env.COLORTERM?.toLowerCase() ?? "";
  const hint = colorTerm === "truecolor" || colorTerm === "24bit" || term.endsWith("-direct");
  // Multiplexers pass 24-bit colour on only when the environment says so; herdr is one too.
  if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen") || env.TERM_PROGRAM?.toLowerCase() === "herdr")
    return hint;
  return hint || knownTrueColorTerminal(env);
}

/** The 6 levels of each channel in the xterm colour cube (indices 16-231). */
const CUBE = [0, 95, 135, 175, 215, 255];

function distance(a: TuiRgb, b: TuiRgb): number {
  // Weighted for the eye (a common redmean-free approximation: green counts most).
  return 2 * (a.r - b.r) ** 2 + 4 * (a.g - b.g) ** 2 + 3 * (a.b - b.b) ** 2;
}

/** The xterm 256-colour index nearest a colour: the cube's nearest corner or the grey ramp's nearest step. */
export function nearest256(color: TuiRgb): number {
  const level = (v: number): number => {
    let best = 0;
    for (let i = 1; i < CUBE.length; i++) if (Math.abs(CUBE[i]! - v) < Math.abs(CUBE[best]! - v)) best = i;
    return best;
  };
  const [r, g, b] = [level(color.r), level(color.g), level(color.b)];
  const cube = { index: 16 + 36 * r + 6 * g + b, rgb: { r: CUBE[r]!, g: CUBE[g]!, b: CUBE[b]! } };
  const average = (color.r + color.g + color.b) / 3;
  const step = Math.max(0, Math.min(23, Math.round((average - 8) / 10)));
  const grey = { index: 232 + step, rgb: { r: 8 + step * 10, g: 8 + step * 10, b: 8 + step * 10 } };
  return distance(grey.rgb, color) < distance(cube.rgb, color) ? grey.index : cube.index;
}
