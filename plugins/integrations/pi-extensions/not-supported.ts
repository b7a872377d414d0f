/**
 * The one error every pi API member without a pi-host equivalent throws, where it is called. One
 * message shape ("not supported yet: <name>") so a user can search for it and a test can match it; a
 * silent no-op would make an extension misbehave without saying why.
 */

/** A pi API member (method, event, module export) that pi-host does not implement yet. */
export class NotSupportedError extends Error {
  constructor(
    readonly member: string,
    detail?: string,
  ) {
    super(`not supported yet: ${member}${detail === undefined ? "" : ` (${detail})`}`);
    this.name = "NotSupportedError";
  }
}

/** Throws NotSupportedError for `member`. */
export function notSupported(member: string, detail?: string): never {
  throw new NotSupportedError(member, detail);
}

/**
 * A stand-in for a function or class export: importing it works (extensions import renderers they only
 * use in the TUI), calling or constructing it throws.
 */
export function unsupportedFunction(member: string, detail?: string): (...args: unknown[]) => never {
  return function unsupported(): never {
    throw new NotSupportedError(member, detail);
  };
}

/**
 * Adds `names` to `target` as members that throw when used: functions for callables (with their
 * classes' static methods, which throw too), a throwing getter for values (objects, constants), so even
 * reading them fails loudly. Members `target` already has win.
 */
export function addUnsupported(
  target: Record<string, unknown>,
  names: {
    functions?: readonly string[];
    values?: readonly string[];
    statics?: Readonly<Record<string, readonly string[]>>;
  },
  prefix = "",
): void {
  for (const name of names.functions ?? []) {
    if (name in target) continue;
    const stand = unsupportedFunction(`${prefix}${name}`) as unknown as Record<string, unknown>;
    for (const member of names.statics?.[name] ?? []) stand[member] = unsupportedFunction(`${prefix}${name}.${member}`);
    target[name] = stand;
  }
  for (const name of names.values ?? []) {
    if (name in target) continue;
    Object.defineProperty(target, name, {
      enumerable: true,
      get: () => notSupported(`${prefix}${name}`),
    });
  }
}
