/**
 * Values in models.json (`apiKey`, header values) in pi 1.6's syntax: `!command` runs a shell command,
 * `$NAME` and `${NAME}` insert an environment variable anywhere in the text, `$$` and `$!` are a
 * literal `$` and `!`, and the rest is literal. The auth plugin (keys), the models plugin (headers) and
 * the mcp plugin (mcp.json `env` / `headers`) read these values, so the rule lives here once; running a
 * `!command` when a value is needed is config-value.ts.
 */

/** A value that is not a `!command`: what it resolves to, and the variables it needs that are unset. */
export interface TemplateResult {
  /** Undefined when a named variable is unset or empty. */
  value: string | undefined;
  /** Every variable the value names (in order, once each). */
  variables: string[];
  /** The named variables that are unset or empty. */
  missing: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const WHOLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a value is a `!command`. */
export function isCommandValue(spec: string): boolean {
  return spec.startsWith("!");
}

/**
 * Fills `$NAME` / `${NAME}` from `env`. A `$` that starts no name (or a `${` without `}`) is literal.
 * pi 0.73 read a value that is only a variable's name as that variable; such values keep working when
 * the variable is set (`legacyName`), so 0.73's files still open.
 */
export function interpolateValue(spec: string, env: NodeJS.ProcessEnv): TemplateResult {
  const variables: string[] = [];
  const missing: string[] = [];
  let value = "";
  const use = (name: string): void => {
    if (!variables.includes(name)) variables.push(name);
    const found = env[name];
    if (found === undefined || found === "") {
      if (!missing.includes(name)) missing.push(name);
    } else value += found;
  };
  let i = 0;
  while (i < spec.length) {
    const dollar = spec.indexOf("$", i);
    if (dollar < 0) {
      value += spec.slice(i);
      break;
    }
    value += spec.slice(i, dollar);
    const next = spec[dollar + 1];
    if (next === "$" || next === "!") {
      value += next;
      i = dollar + 2;
      continue;
    }
    if (next === "{") {
      const end = spec.indexOf("}", dollar + 2);
      const name = end < 0 ? "" : spec.slice(dollar + 2, end);
      if (end >= 0 && WHOLE_NAME.test(name)) {
        use(name);
        i = end + 1;
      } else if (end >= 0) {
        value += spec.slice(dollar, end + 1);
        i = end + 1;
      } else {
        value += "$";
        i = dollar + 1;
      }
      continue;
    }
    const name = NAME.exec(spec.slice(dollar + 1))?.[0];
    if (name !== undefined) {
      use(name);
      i = dollar + 1 + name.length;
    } else {
      value += "$";
      i = dollar + 1;
    }
  }
  if (variables.length === 0 && legacyName(spec, env)) return { value: env[spec], variables: [spec], missing: [] };
  return { value: missing.length > 0 ? undefined : value, variables, missing };
}

/** A value that is exactly the name of a set variable, as pi 0.73 wrote keys. */
function legacyName(spec: string, env: NodeJS.ProcessEnv): boolean {
  const found = WHOLE_NAME.test(spec) ? env[spec] : undefined;
  return found !== undefined && found !== "";
}
